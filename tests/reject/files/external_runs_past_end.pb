Bxj
location
data24.binj
offset4p