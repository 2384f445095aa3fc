{{/* The name every object starts with: the release name, with "-gitdex" unless it says gitdex already. */}}
{{- define "gitdex.fullname" -}}
{{- if contains "gitdex" .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-gitdex" .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "gitdex.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}

{{/* Labels of every object; "component" is the service or Job. */}}
{{- define "gitdex.labels" -}}
app.kubernetes.io/name: gitdex
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/version: {{ .root.Values.image.tag | default .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- with .component }}
app.kubernetes.io/component: {{ . }}
{{- end }}
{{- end -}}

{{- define "gitdex.selector" -}}
app.kubernetes.io/name: gitdex
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "gitdex.podSecurity" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
fsGroup: 1000
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "gitdex.containerSecurity" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop: ["ALL"]
{{- end -}}

{{/*
The environment every gitdex container shares: the ConfigMap, the optional engines Secret, the
engine security settings and their files. `github`: also the GitHub credentials.
*/}}
{{- define "gitdex.envFrom" -}}
- configMapRef:
    name: {{ include "gitdex.fullname" .root }}
- secretRef:
    name: {{ .root.Values.secrets.engines }}
    optional: true
{{- if .github }}
- secretRef:
    name: {{ .root.Values.secrets.github }}
{{- end }}
{{- end -}}

{{- define "gitdex.securityEnv" -}}
{{- range $name, $value := .Values.engineSecurity.env }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- range $name, $key := .Values.engineSecurity.files }}
{{- if not (hasSuffix "_FILE" $name) }}
{{- fail (printf "engineSecurity.files.%s: only …_FILE variables name files (e.g. KAFKA_SASL_PASSWORD_FILE)" $name) }}
{{- end }}
- name: {{ $name }}
  value: /etc/gitdex/engines/{{ $key }}
{{- end }}
{{- end -}}

{{- define "gitdex.securityMounts" -}}
- name: tmp
  mountPath: /tmp
{{- if .Values.engineSecurity.files }}
- name: engine-files
  mountPath: /etc/gitdex/engines
  readOnly: true
{{- end }}
{{- end -}}

{{- define "gitdex.securityVolumes" -}}
- name: tmp
  emptyDir:
    sizeLimit: {{ .tmp | default "64Mi" }}
{{- if .root.Values.engineSecurity.files }}
{{- if not .root.Values.engineSecurity.secretName }}
{{- fail "engineSecurity.files needs engineSecurity.secretName: the Secret holding those files" }}
{{- end }}
- name: engine-files
  secret:
    secretName: {{ .root.Values.engineSecurity.secretName }}
    defaultMode: 288 # 0440: read for the owner and group (decimal: YAML 1.2 readers take 0440 for 440)
{{- end }}
{{- end -}}

{{- define "gitdex.probes" -}}
startupProbe:
  httpGet:
    path: /healthz
    port: http
  periodSeconds: 2
  failureThreshold: {{ .startupFailures | default 30 }}
livenessProbe:
  httpGet:
    path: /healthz
    port: http
  periodSeconds: 10
  timeoutSeconds: 3
  failureThreshold: 3
readinessProbe:
  httpGet:
    path: /readyz
    port: http
  periodSeconds: {{ .readyPeriod | default 5 }}
  timeoutSeconds: 3
  failureThreshold: 2
{{- end -}}
