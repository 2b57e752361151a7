module kevents/request-info-oracle

go 1.19

require (
	k8s.io/apimachinery v0.37.0-beta.0
	k8s.io/apiserver v0.37.0-beta.0
)
