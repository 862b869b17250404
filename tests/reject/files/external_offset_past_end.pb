Bxj
location
data24.binj
offset100p