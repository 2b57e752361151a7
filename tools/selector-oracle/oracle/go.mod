module kevents/selector-oracle

go 1.19

require k8s.io/apimachinery v0.37.0-beta.0
