{{/*
One gitdex service: its Deployment, Service and PodDisruptionBudget, as in deploy/kubernetes/base.
Parameters: root, component (webhook | indexer | reader), values (its block of values), github
(mount the GitHub credentials), env (extra env entries, YAML), mounts and volumes (YAML), grace,
preStop, startupFailures, readyPeriod, servicePort, pdb (minAvailable | maxUnavailable), autoscaled.
*/}}
{{- define "gitdex.service" -}}
{{- $root := .root -}}
{{- $name := printf "%s-%s" (include "gitdex.fullname" $root) .component -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $name }}
  labels:
    {{- include "gitdex.labels" (dict "root" $root "component" .component) | nindent 4 }}
spec:
  {{- if not .autoscaled }}
  replicas: {{ .values.replicas }}
  {{- end }}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      {{- include "gitdex.selector" (dict "root" $root "component" .component) | nindent 6 }}
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: 0
  template:
    metadata:
      labels:
        {{- include "gitdex.labels" (dict "root" $root "component" .component) | nindent 8 }}
      annotations:
        # A changed ConfigMap rolls the pods: gitdex reads its settings once, at start.
        checksum/config: {{ include (print $root.Template.BasePath "/configmap.yaml") $root | sha256sum }}
    spec:
      serviceAccountName: {{ include "gitdex.fullname" $root }}
      automountServiceAccountToken: false
      terminationGracePeriodSeconds: {{ .grace }}
      {{- with $root.Values.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      securityContext:
        {{- include "gitdex.podSecurity" . | nindent 8 }}
      topologySpreadConstraints:
        - maxSkew: 1
          topologyKey: kubernetes.io/hostname
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              {{- include "gitdex.selector" (dict "root" $root "component" .component) | nindent 14 }}
      containers:
        - name: gitdex
          image: {{ include "gitdex.image" $root }}
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          env:
            - name: GITDEX_ROLE
              value: {{ .component }}
            - name: NODE_OPTIONS
              value: --enable-source-maps --max-old-space-size={{ .values.heapMB }}
            {{- include "gitdex.securityEnv" $root | nindent 12 }}
            {{- with .env }}
            {{- . | nindent 12 }}
            {{- end }}
          envFrom:
            {{- include "gitdex.envFrom" (dict "root" $root "github" .github) | nindent 12 }}
          ports:
            - name: http
              containerPort: 8080
              protocol: TCP
          {{- include "gitdex.probes" . | nindent 10 }}
          {{- if .preStop }}
          lifecycle:
            # Keep serving while the endpoints controller takes the pod out of the Service.
            preStop:
              exec:
                command: ["node", "-e", "setTimeout(() => {}, 5000)"]
          {{- end }}
          resources:
            {{- toYaml .values.resources | nindent 12 }}
          securityContext:
            {{- include "gitdex.containerSecurity" . | nindent 12 }}
          volumeMounts:
            {{- include "gitdex.securityMounts" $root | nindent 12 }}
            {{- with .mounts }}
            {{- . | nindent 12 }}
            {{- end }}
      volumes:
        {{- include "gitdex.securityVolumes" (dict "root" $root "tmp" .tmp) | nindent 8 }}
        {{- with .volumes }}
        {{- . | nindent 8 }}
        {{- end }}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ $name }}
  labels:
    {{- include "gitdex.labels" (dict "root" $root "component" .component) | nindent 4 }}
spec:
  type: ClusterIP
  selector:
    {{- include "gitdex.selector" (dict "root" $root "component" .component) | nindent 4 }}
  ports:
    - name: http
      port: {{ .servicePort }}
      targetPort: http
      protocol: TCP
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ $name }}
  labels:
    {{- include "gitdex.labels" (dict "root" $root "component" .component) | nindent 4 }}
spec:
  {{- .pdb | nindent 2 }}
  selector:
    matchLabels:
      {{- include "gitdex.selector" (dict "root" $root "component" .component) | nindent 6 }}
{{- end -}}
