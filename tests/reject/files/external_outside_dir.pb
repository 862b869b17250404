Bxj
location../../../README.mdp