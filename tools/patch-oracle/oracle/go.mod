module kevents/patch-oracle

go 1.19

require gopkg.in/evanphx/json-patch.v4 v4.12.0
