import re

re.sub(r"\{export_dir\}", "D:\\data\\exports", "moves to {export_dir}")
