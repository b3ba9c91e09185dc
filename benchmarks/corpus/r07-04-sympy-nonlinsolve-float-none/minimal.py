from sympy import symbols, sin, pi, sqrt, nonlinsolve

x, y = symbols('x y')
a = 0.508793242825092
nonlinsolve([x**2*(y - a)**2 - sin(pi/8)*a, (x - 1)**2*y**2 - a**2], x, y)
