Bxj
locationoutside-link.binp