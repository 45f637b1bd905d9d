# Writes ChipPresets.inc: the preset YAML files as C++ raw string literals.
string(REPLACE "," ";" PRESETS "${PRESETS}")
set(text "static const Preset kPresets[] = {\n")
foreach(p ${PRESETS})
  file(READ ${DIR}/${p}.yaml body)
  string(APPEND text "  {\"${p}\", R\"lpxyaml(${body})lpxyaml\"},\n")
endforeach()
string(APPEND text "};\n")
file(WRITE ${OUT} "${text}")
