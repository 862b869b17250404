Bxj
locationno-such-file.binp