Bxj
location
data24.binp