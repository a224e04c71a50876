# Embed text files in C: cmake -DDIR=<folder> -DNAMES=<a,b,...> -DPREFIX=<C prefix>
#   -DHEADER=<header to include> -DOUT=<file.c> -P EmbedText.cmake
# writes OUT with one NUL-terminated array per file DIR/<name>.cl, called
# <PREFIX><name>, as bytes, so that any text embeds as written.
string(REPLACE "," ";" names "${NAMES}")
set(text "/* Written by cmake/EmbedText.cmake from ${DIR}: do not edit. */\n")
string(APPEND text "#include \"${HEADER}\"\n")
foreach(name IN LISTS names)
  file(READ "${DIR}/${name}.cl" hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n    "
         bytes "${bytes}")
  string(APPEND text "\nconst char ${PREFIX}${name}[] = {\n    ${bytes}0x00};\n")
endforeach()
# Written only when it changes, so that a reconfigure rebuilds nothing.
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
