curl -F 'file=@photo.png;type=image/png' -F name=value --form-string 'x=@not-a-file' http://h/upload
