
Bdequantizelinear_59J(õÑ<»­q¿”%k>/\0À£>	IÔ¿ã5ø>UoŒ¿A+‰?ëbO@