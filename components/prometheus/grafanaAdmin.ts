/**
 * Grafana's administrator password over time. Grafana applies `GF_SECURITY_ADMIN_PASSWORD` (the chart's
 * `admin.existingSecret`) only when it creates its database: "admin_password: the password of the default Grafana
 * Admin. Set once on first-run" (grafana/grafana `docs/sources/setup-grafana/configure-grafana/_index.md`), and the
 * platform keeps that database on a volume (components/prometheus/component.ts). So a changed password would reach the Secret and
 * nothing else, and even a restarted Grafana would keep the old one. Hence, in the Grafana pod:
 *
 * - an init container, from Grafana's own image, that sets the admin user's password from the Secret with Grafana's
 *   CLI, `grafana cli admin reset-admin-password --password-from-stdin` (grafana/grafana
 *   `pkg/cmd/grafana-cli/commands/commands.go`: the flag reads the first line of standard input, and `--user-id`
 *   defaults to 1, the admin Grafana creates first; `cli.go`: the global `--homepath` and `--config`;
 *   `reset_password_command.go`: it hashes the password with the user's salt and stores it) against the data
 *   directory, before Grafana starts. On a volume without a database yet it does nothing: Grafana then creates the
 *   admin with the Secret's password itself. It runs on every start, so the Secret is always what counts (a password
 *   changed in Grafana's UI is reset on the next start); when the CLI fails the pod does not start, and `pulumi up`
 *   fails on the release instead of leaving the old password in place without a word;
 * - the pod template carries the Secret's resource version (passwordRotation.ts), which changes exactly when Pulumi
 *   changes the Secret, so a new password rolls Grafana; no derivative of the password is in the template;
 * - the Deployment is replaced, not rolled (`Recreate`): the new pod's init container must not write the SQLite
 *   database the old Grafana still has open, and a ReadWriteOnce volume cannot be mounted by both pods on two nodes.
 *
 * The password reaches the init container only through `secretKeyRef`, and `grafana cli` only on its standard input:
 * never an argument (which any process listing shows), a plain env value or a log line.
 */

/** Name of the init container that applies the admin password. */
export const GRAFANA_ADMIN_INIT_CONTAINER = "admin-password";

/** Grafana's data directory and configuration file in the chart's pod (its `storage` and `config` volumes). */
const DATA_DIR = "/var/lib/grafana";
const CONFIG_FILE = "/etc/grafana/grafana.ini";
/** Grafana's home in its image (the image's GF_PATHS_HOME). */
const HOME_PATH = "/usr/share/grafana";
/** The environment variable the init container reads the password from (not a GF_ name, which Grafana's config would read). */
const PASSWORD_ENV = "GRAFANA_ADMIN_PASSWORD";

/**
 * The init container's program (POSIX sh, as in Grafana's image). The SQLite database is `grafana.db` in the data
 * directory, the chart's and Grafana's default (`[database] path`).
 */
export const GRAFANA_ADMIN_SCRIPT = `set -eu
if [ ! -s ${DATA_DIR}/grafana.db ]; then
  echo "admin-password: no database yet; Grafana creates the admin user with the Secret's password"
  exit 0
fi
if ! printf '%s\\n' "$${PASSWORD_ENV}" | grafana cli --homepath ${HOME_PATH} --config ${CONFIG_FILE} admin reset-admin-password --password-from-stdin >/tmp/reset.log 2>&1; then
  echo "admin-password: grafana cli could not set the admin user's password from its Secret:" >&2
  cat /tmp/reset.log >&2
  exit 1
fi
echo "admin-password: the admin user has the Secret's password"
`;

/**
 * The init container, as a value of the Grafana chart's `extraInitContainers`, which the chart renders through
 * `tpl` (grafana chart `templates/_pod.tpl`): the image is Grafana's own, whatever image the chart runs (its registry,
 * repository and tag, the chart's appVersion by default), so the CLI matches the database's schema.
 *
 * @param secret - the Secret with the password, and its key.
 */
export function grafanaAdminInitContainer(secret: { name: string; key: string }): Record<string, unknown> {
    return {
        name: GRAFANA_ADMIN_INIT_CONTAINER,
        image:
            "{{ .Values.global.imageRegistry | default .Values.image.registry }}/{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}" +
            "{{ if .Values.image.sha }}@sha256:{{ .Values.image.sha }}{{ end }}",
        imagePullPolicy: "IfNotPresent",
        command: ["sh", "-c", GRAFANA_ADMIN_SCRIPT],
        env: [{ name: PASSWORD_ENV, valueFrom: { secretKeyRef: { name: secret.name, key: secret.key } } }],
        volumeMounts: [
            { name: "config", mountPath: CONFIG_FILE, subPath: "grafana.ini" },
            { name: "storage", mountPath: DATA_DIR },
        ],
        // As the chart's Grafana container: the pod's securityContext makes it Grafana's user, which owns the volume.
        securityContext: { allowPrivilegeEscalation: false, privileged: false, capabilities: { drop: ["ALL"] }, seccompProfile: { type: "RuntimeDefault" } },
        resources: { requests: { cpu: "10m", memory: "64Mi" }, limits: { memory: "512Mi" } },
    };
}
