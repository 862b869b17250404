Bxj
location
data24.binj
offset0j
offset4p