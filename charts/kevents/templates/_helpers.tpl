{{/* Names, labels and the pieces several templates share. */}}

{{- define "kevents.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "kevents.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "kevents.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Full name of a component: (dict "context" $ "component" .Values.server.name). */}}
{{- define "kevents.componentName" -}}
{{- printf "%s-%s" (include "kevents.fullname" .context) .component | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "kevents.selectorLabels" -}}
app.kubernetes.io/name: {{ include "kevents.name" .context }}
app.kubernetes.io/instance: {{ .context.Release.Name }}
{{- if .component }}
app.kubernetes.io/component: {{ .component }}
{{- end }}
{{- end -}}

{{- define "kevents.labels" -}}
helm.sh/chart: {{ include "kevents.chart" .context }}
{{ include "kevents.selectorLabels" . }}
app.kubernetes.io/version: {{ .context.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .context.Release.Service }}
app.kubernetes.io/part-of: kevents
{{- end -}}

{{/* An image reference: (dict "image" .Values.server.image "context" $). */}}
{{- define "kevents.image" -}}
{{- $registry := default .context.Values.global.image.registry .image.registry -}}
{{- $tag := default .context.Chart.AppVersion .image.tag -}}
{{- if $registry -}}
{{- printf "%s/%s:%s" $registry .image.repository $tag -}}
{{- else -}}
{{- printf "%s:%s" .image.repository $tag -}}
{{- end -}}
{{- end -}}

{{- define "kevents.imagePullSecrets" -}}
{{- $secrets := concat .context.Values.global.imagePullSecrets .secrets -}}
{{- if $secrets -}}
imagePullSecrets:
{{- range $secrets }}
  {{- if kindIs "string" . }}
  - name: {{ . }}
  {{- else }}
  - {{ toYaml . | nindent 4 | trim }}
  {{- end }}
{{- end }}
{{- end -}}
{{- end -}}

{{- define "kevents.server.fullname" -}}
{{- include "kevents.componentName" (dict "context" . "component" .Values.server.name) -}}
{{- end -}}

{{- define "kevents.controller.fullname" -}}
{{- include "kevents.componentName" (dict "context" . "component" .Values.controller.name) -}}
{{- end -}}

{{- define "kevents.redis.fullname" -}}
{{- include "kevents.componentName" (dict "context" . "component" .Values.redis.name) -}}
{{- end -}}

{{- define "kevents.server.serviceAccountName" -}}
{{- if .Values.server.serviceAccount.create -}}
{{- default (include "kevents.server.fullname" .) .Values.server.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.server.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "kevents.controller.serviceAccountName" -}}
{{- if .Values.controller.serviceAccount.create -}}
{{- default (include "kevents.controller.fullname" .) .Values.controller.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.controller.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The Secret holding the apiserver's serving pair (and ca.crt). */}}
{{- define "kevents.server.tlsSecretName" -}}
{{- default (printf "%s-tls" (include "kevents.server.fullname" .)) .Values.server.tls.existingSecret -}}
{{- end -}}

{{- define "kevents.controller.clientSecretName" -}}
{{- printf "%s-client" (include "kevents.controller.fullname" .) -}}
{{- end -}}

{{/* The controller authenticates with a chart-signed client certificate. */}}
{{- define "kevents.controller.usesClientCert" -}}
{{- if and .Values.controller.enabled (eq .Values.controller.target "kevents") (eq .Values.controller.apiserverAuth.mode "clientCertificate") -}}true{{- end -}}
{{- end -}}

{{/* Redis: "external", "bundled" or "" (memory). Fails when redis is chosen but none is given. */}}
{{- define "kevents.redis.mode" -}}
{{- if eq .Values.storage.backend "redis" -}}
{{- if or .Values.externalRedis.url .Values.externalRedis.host .Values.externalRedis.sentinel.hosts -}}
external
{{- else if .Values.redis.enabled -}}
bundled
{{- else -}}
{{- fail "storage.backend is redis: set redis.enabled, or externalRedis.url, externalRedis.host or externalRedis.sentinel.hosts" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The Secret and key of the Redis password, as "name/key"; "" without a password. */}}
{{- define "kevents.redis.passwordRef" -}}
{{- $mode := include "kevents.redis.mode" . -}}
{{- if eq $mode "bundled" -}}
{{- if .Values.redis.auth.enabled -}}
{{- if .Values.redis.auth.existingSecret -}}
{{- printf "%s/%s" .Values.redis.auth.existingSecret .Values.redis.auth.existingSecretPasswordKey -}}
{{- else -}}
{{- printf "%s/redis-password" (include "kevents.redis.fullname" .) -}}
{{- end -}}
{{- end -}}
{{- else if eq $mode "external" -}}
{{- if .Values.externalRedis.existingSecret -}}
{{- printf "%s/%s" .Values.externalRedis.existingSecret .Values.externalRedis.existingSecretPasswordKey -}}
{{- else if .Values.externalRedis.password -}}
{{- printf "%s-external-redis/redis-password" (include "kevents.fullname" .) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The --storage URL; passwords come in as $(KEVENTS_REDIS_PASSWORD), expanded by the kubelet. */}}
{{- define "kevents.storageURL" -}}
{{- $mode := include "kevents.redis.mode" . -}}
{{- if eq .Values.storage.backend "sqlite" -}}
{{- $params := .Values.storage.sqlite.urlParameters -}}
{{- printf "sqlite:///var/lib/kevents/events.db%s" ($params | empty | ternary "" (printf "?%s" (include "kevents.query" $params))) -}}
{{- else if eq .Values.storage.backend "postgres" -}}
$(KEVENTS_POSTGRES_URL)
{{- else if not $mode -}}
memory
{{- else -}}
{{- $params := merge (dict "prefix" .Values.storage.prefix) .Values.storage.urlParameters -}}
{{- $auth := "" -}}
{{- if include "kevents.redis.passwordRef" . -}}
{{- $auth = printf "%s:$(KEVENTS_REDIS_PASSWORD)@" ((eq $mode "external") | ternary .Values.externalRedis.username "") -}}
{{- end -}}
{{- if eq $mode "bundled" -}}
{{- $url := printf "redis://%s%s:%d" $auth (include "kevents.redis.fullname" .) (int .Values.redis.service.port) -}}
{{- printf "%s?%s" $url (include "kevents.query" $params) -}}
{{- else if .Values.externalRedis.url -}}
{{- .Values.externalRedis.url -}}
{{- else -}}
{{- $r := .Values.externalRedis -}}
{{- if $r.sentinel.passwordKey -}}
{{- $_ := set $params "sentinelPassword" "$(KEVENTS_REDIS_SENTINEL_PASSWORD)" -}}
{{- end -}}
{{- if $r.sentinel.hosts -}}
{{- $scheme := $r.tls.enabled | ternary "rediss+sentinel" "redis+sentinel" -}}
{{- printf "%s://%s%s/%s/%d?%s" $scheme $auth (join "," $r.sentinel.hosts) $r.sentinel.masterName (int $r.database) (include "kevents.query" $params) -}}
{{- else -}}
{{- $scheme := $r.tls.enabled | ternary "rediss" "redis" -}}
{{- printf "%s://%s%s:%d/%d?%s" $scheme $auth $r.host (int $r.port) (int $r.database) (include "kevents.query" $params) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* A URL query from a dict, keys sorted. */}}
{{- define "kevents.query" -}}
{{- $parts := list -}}
{{- range $k := keys . | sortAlpha -}}
{{- $parts = append $parts (printf "%s=%v" $k (get $ $k)) -}}
{{- end -}}
{{- join "&" $parts -}}
{{- end -}}

{{/* The API group domain served (`--group-domain`): aggregation's when it is on. */}}
{{- define "kevents.groupDomain" -}}
{{- if .Values.aggregation.enabled -}}
{{- if eq .Values.aggregation.groupDomain "k8s.io" -}}
{{- fail "aggregation.groupDomain: k8s.io collides with the cluster's own events.k8s.io; use a domain of your own (default kevents.io)" -}}
{{- end -}}
{{- .Values.aggregation.groupDomain -}}
{{- else -}}
{{- .Values.server.groupDomain -}}
{{- end -}}
{{- end -}}

{{/* Config files the apiserver reads, by file name (rendered YAML). */}}
{{- define "kevents.server.configFiles" -}}
{{- $files := dict -}}
{{- $authn := deepCopy .Values.server.authentication.config -}}
{{- $sa := .Values.server.authentication.serviceAccountIssuer -}}
{{- if $sa.enabled -}}
{{- $ca := $sa.certificateAuthority -}}
{{- if not $ca -}}
{{- $root := lookup "v1" "ConfigMap" .Release.Namespace "kube-root-ca.crt" -}}
{{- $ca = required "server.authentication.serviceAccountIssuer: set certificateAuthority (the cluster CA, PEM); it is looked up from the kube-root-ca.crt ConfigMap only when installing into a cluster" (dig "data" "ca.crt" "" $root) -}}
{{- end -}}
{{- $jwt := dict "issuer" (dict "url" $sa.issuer "audiences" $sa.audiences "certificateAuthority" $ca) "claimMappings" (dict "username" (dict "claim" "sub" "prefix" "")) -}}
{{- if gt (len $sa.audiences) 1 -}}
{{- $_ := set $jwt.issuer "audienceMatchPolicy" "MatchAny" -}}
{{- end -}}
{{- if not $authn -}}
{{- $authn = dict "apiVersion" (printf "apiserver.config.%s/v1beta1" (include "kevents.groupDomain" .)) "kind" "AuthenticationConfiguration" -}}
{{- end -}}
{{- $_ := set $authn "jwt" (append (default (list) (get $authn "jwt")) $jwt) -}}
{{- end -}}
{{- if not $authn -}}
{{- $authn = dict "apiVersion" (printf "apiserver.config.%s/v1beta1" (include "kevents.groupDomain" .)) "kind" "AuthenticationConfiguration" -}}
{{- end -}}
{{- if not (hasKey $authn "anonymous") -}}
{{- if .Values.server.authentication.anonymous -}}
{{- $_ := set $authn "anonymous" (dict "enabled" true) -}}
{{- else -}}
{{- $_ := set $authn "anonymous" (dict "enabled" true "conditions" (list (dict "path" "/livez") (dict "path" "/readyz") (dict "path" "/healthz"))) -}}
{{- end -}}
{{- end -}}
{{- if $authn -}}
{{- $_ := set $files "authentication.yaml" (toYaml $authn) -}}
{{- end -}}
{{- $authz := .Values.server.authorization.config -}}
{{- $d := .Values.server.authorization.delegateToCluster -}}
{{- if $d.enabled -}}
{{- $authz = dict "apiVersion" (printf "apiserver.config.%s/v1beta1" (include "kevents.groupDomain" .)) "kind" "AuthorizationConfiguration" "authorizers" (list (dict "type" "Webhook" "name" "cluster-rbac" "webhook" (dict "timeout" $d.timeout "authorizedTTL" $d.authorizedTTL "unauthorizedTTL" $d.unauthorizedTTL "subjectAccessReviewVersion" "v1" "failurePolicy" $d.failurePolicy "connectionInfo" (dict "type" "KubeConfigFile" "kubeConfigFile" "/etc/kevents/config/cluster-rbac.kubeconfig")))) -}}
{{- $kubeconfig := dict "apiVersion" "v1" "kind" "Config" "clusters" (list (dict "name" "cluster" "cluster" (dict "server" "https://kubernetes.default.svc/apis/authorization.k8s.io/v1/subjectaccessreviews" "certificate-authority" "/var/run/secrets/kubernetes.io/serviceaccount/ca.crt"))) "users" (list (dict "name" "kevents" "user" (dict "tokenFile" "/var/run/secrets/kubernetes.io/serviceaccount/token"))) "contexts" (list (dict "name" "cluster" "context" (dict "cluster" "cluster" "user" "kevents"))) "current-context" "cluster" -}}
{{- $_ := set $files "cluster-rbac.kubeconfig" (toYaml $kubeconfig) -}}
{{- end -}}
{{- if $authz -}}
{{- $_ := set $files "authorization.yaml" (toYaml $authz) -}}
{{- end -}}
{{- if .Values.aggregation.enabled -}}
{{- $cluster := dict "apiVersion" "v1" "kind" "Config" "clusters" (list (dict "name" "cluster" "cluster" (dict "server" "https://kubernetes.default.svc" "certificate-authority" "/var/run/secrets/kubernetes.io/serviceaccount/ca.crt"))) "users" (list (dict "name" "kevents" "user" (dict "tokenFile" "/var/run/secrets/kubernetes.io/serviceaccount/token"))) "contexts" (list (dict "name" "cluster" "context" (dict "cluster" "cluster" "user" "kevents"))) "current-context" "cluster" -}}
{{- $_ := set $files "cluster.kubeconfig" (toYaml $cluster) -}}
{{- end -}}
{{- with .Values.server.egressSelector.config -}}
{{- $_ := set $files "egress-selector.yaml" (toYaml .) -}}
{{- end -}}
{{- with .Values.server.tracing.config -}}
{{- $_ := set $files "tracing.yaml" (toYaml .) -}}
{{- end -}}
{{- toYaml $files -}}
{{- end -}}

{{/* An HTTP probe: (dict "probe" .Values.server.readinessProbe "port" "https" "scheme" "HTTPS"). */}}
{{- define "kevents.probe" -}}
httpGet:
  path: {{ .probe.httpPath }}
  port: {{ .port }}
  scheme: {{ .scheme }}
initialDelaySeconds: {{ .probe.initialDelaySeconds }}
periodSeconds: {{ .probe.periodSeconds }}
timeoutSeconds: {{ .probe.timeoutSeconds }}
successThreshold: {{ .probe.successThreshold }}
failureThreshold: {{ .probe.failureThreshold }}
{{- end -}}

{{- define "kevents.pdbSpec" -}}
{{- if .pdb.minAvailable }}
minAvailable: {{ .pdb.minAvailable }}
{{- else }}
maxUnavailable: {{ .pdb.maxUnavailable }}
{{- end }}
{{- end -}}

{{/* The APIService registering events.<groupDomain>/v1 with the cluster: (dict "context" . "caBundle" PEM). */}}
{{- define "kevents.apiService" -}}
{{- $ := .context -}}
{{- $a := $.Values.aggregation -}}
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata:
  name: v1.events.{{ include "kevents.groupDomain" $ }}
  labels:
    {{- include "kevents.labels" (dict "context" $ "component" $.Values.server.name) | nindent 4 }}
  {{- with $a.certManagerInjectFrom }}
  annotations:
    cert-manager.io/inject-ca-from: {{ . }}
  {{- end }}
spec:
  group: events.{{ include "kevents.groupDomain" $ }}
  version: v1
  service:
    name: {{ include "kevents.server.fullname" $ }}
    namespace: {{ $.Release.Namespace }}
    port: {{ $.Values.server.service.port }}
  {{- if and .caBundle (not $a.certManagerInjectFrom) }}
  caBundle: {{ .caBundle | b64enc }}
  {{- end }}
  groupPriorityMinimum: {{ $a.groupPriorityMinimum }}
  versionPriority: {{ $a.versionPriority }}
{{- end -}}
