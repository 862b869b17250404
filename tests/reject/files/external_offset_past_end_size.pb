Bxj
location
data24.binj
offset25p