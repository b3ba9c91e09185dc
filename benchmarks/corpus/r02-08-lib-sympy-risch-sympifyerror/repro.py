from sympy import *
x= symbols('x ')
integrate(exp(x+exp(x))+exp(x-exp(x)),x)
