from sympy import *

expr = Piecewise((1.0, 0.0<1.0/Max(0.0, (symbols('x')+1)/symbols('y'))), (0.0, True))
print(simplify(expr))
