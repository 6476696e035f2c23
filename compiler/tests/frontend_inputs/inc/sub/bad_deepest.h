

  #error deep trouble
