module kevents/yaml-oracle

go 1.19

require sigs.k8s.io/yaml v1.4.0
