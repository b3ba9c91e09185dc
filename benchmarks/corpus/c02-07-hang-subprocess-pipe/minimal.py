import subprocess
import sys

proc = subprocess.Popen([sys.executable, "-c", "print('x' * 200000)"], stdout=subprocess.PIPE)
proc.wait()
