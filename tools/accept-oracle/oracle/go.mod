module oracle

go 1.19

require github.com/munnerz/goautoneg v0.0.0-20191010083245-a7dc8b61c822
