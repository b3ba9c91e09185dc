import io

encoding = "utf-8"
stream = io.BytesIO("joão".encode(encoding))
buffer = ""
while data := stream.read(3):
    buffer += data.decode(encoding)
