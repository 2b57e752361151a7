module kevents/smd-oracle

go 1.19

require sigs.k8s.io/structured-merge-diff/v6 v6.3.3
