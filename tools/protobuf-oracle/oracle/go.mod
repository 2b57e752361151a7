module kevents/protobuf-oracle

go 1.19

require (
	github.com/gogo/protobuf v1.3.2
	k8s.io/api v0.26.3
	k8s.io/apimachinery v0.26.3
	sigs.k8s.io/json v0.0.0-20220713155537-f223a00ba0e2
)
