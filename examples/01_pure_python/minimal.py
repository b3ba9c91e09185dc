from datetime import datetime

datetime.strptime("2024-03-17T03:02:54Z", "%Y-%m-%d %H:%M:%S")
