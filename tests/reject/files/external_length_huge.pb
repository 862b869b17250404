Bxj
location
data24.binj
length18446744073709551615p