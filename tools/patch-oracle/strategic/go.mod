module kevents/strategic-patch-oracle

go 1.19

require (
	k8s.io/apimachinery v0.37.0-beta.0
	sigs.k8s.io/json v0.0.0-20220713155537-f223a00ba0e2
)
