from sympy import Max, symbols
x, y = symbols('x y')
(Max(y/(x - 1), y/(x + 1)) >= 0).simplify()
