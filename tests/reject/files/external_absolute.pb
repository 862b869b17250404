Bxj
location/etc/hostnamep