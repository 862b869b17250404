Bxj
location
data24.binj
locationx23.pbp