from sympy import *
x,y=symbols('x y')
lst=[x**2*(y-0.508793242825092)**2-sin(pi/8)* sqrt(0.508793242825092**2), (x-1)**2*y**2-0.508793242825092**2]
print(nonlinsolve(lst, x,y))
