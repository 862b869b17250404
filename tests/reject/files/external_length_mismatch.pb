Bxj
location
data24.binj
length20p