Bxj
location
data24.binj
basepath/tmpp