
Bdequantizelinear_55J(Tœ¿<o1¿<o1ÀI±¥À¿P>ì~z>Hÿ&@NÇ!@Hÿ¦=1ß;¿