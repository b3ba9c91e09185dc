from sympy import exp, integrate, symbols

x = symbols("x")
integrate(exp(x + exp(x)) + exp(x - exp(x)), x)
