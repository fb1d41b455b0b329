/**
 * Passwords over time for Bank of Sirius. Postgres applies `POSTGRES_PASSWORD`, and the platform's
 * demo-login script, only when a database volume is first initialised; the data outlives the pods. So:
 *
 * - every database pod runs a `credentials` container beside Postgres that, on every start of the pod,
 *   waits for the server and sets the database user's password, and in the accounts database the demo
 *   login's, from the current Secrets. It connects through the Unix socket, which the Postgres image
 *   trusts for local connections, so it needs no old password. It is idempotent, and the pod is ready
 *   only once it has applied them;
 * - every pod that reads a Secret carries an annotation with the Secrets' resource versions, which change
 *   whenever Pulumi changes a Secret, so changed passwords roll the databases and their clients.
 *
 * Passwords reach the container only through `secretKeyRef` and reach `psql` only on its standard
 * input: never in a plain env value, an argument or a log line.
 */
import type * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { SIRIUS_CONFIG as C, WorkloadSpec } from "./application/workloadSpecs";

/** Pod annotation whose value changes whenever a Secret the pod reads changes. */
export const SECRETS_REVISION_ANNOTATION = "secrets.mara/revision";

/** Name of the container that applies the passwords in a database pod. */
export const CREDENTIALS_CONTAINER = "credentials";

/** Where Postgres puts its Unix socket; shared between the database and the credentials container. */
const SOCKET_DIR = "/var/run/postgresql";

/**
 * The credentials container's program (POSIX sh, as in the Postgres Alpine image). With `--once` it
 * applies the passwords and exits instead of staying up (to run it by hand, and in tests).
 */
export const CREDENTIALS_SCRIPT = `set -eu
marker="\${CREDENTIALS_MARKER:-/tmp/credentials-applied}"
rm -f "$marker"
# The server that initialises a new volume listens on no TCP port; the real one does. Wait for it.
waited=0
until pg_isready -q -h 127.0.0.1 -p 5432; do
  waited=$((waited + 1))
  if [ "$waited" -ge 600 ]; then echo "credentials: the database did not start within 600 s" >&2; exit 1; fi
  sleep 1
done
literal() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }
{
  printf 'ALTER ROLE "%s" WITH PASSWORD %s;\\n' "$POSTGRES_USER" "$(literal "$POSTGRES_PASSWORD")"
  if [ "\${USE_DEMO_DATA:-}" = "True" ] && [ -n "\${DEMO_LOGIN_USERNAME:-}" ]; then
    login=$(literal "$DEMO_LOGIN_USERNAME")
    printf 'CREATE EXTENSION IF NOT EXISTS pgcrypto;\\n'
    printf "INSERT INTO users (accountid, username, passhash, firstname, lastname, birthday, timezone, address, state, zip, ssn) SELECT '10' || lpad((floor(random() * 100000000))::bigint::text, 8, '0'), %s, ''::bytea, firstname, lastname, birthday, timezone, address, state, zip, ssn FROM users WHERE username = 'testuser' AND NOT EXISTS (SELECT 1 FROM users WHERE username = %s);\\n" "$login" "$login"
    printf "UPDATE users SET passhash = convert_to(crypt(%s, gen_salt('bf', 12)), 'UTF8') WHERE username = %s;\\n" "$(literal "$DEMO_LOGIN_PASSWORD")" "$login"
  fi
} | psql -v ON_ERROR_STOP=1 -q -h ${SOCKET_DIR} -U "$POSTGRES_USER" -d "$POSTGRES_DB" >/dev/null
touch "$marker"
echo "credentials: the database has the current passwords"
if [ "\${1:-}" = "--once" ]; then exit 0; fi
trap 'exit 0' TERM INT
while :; do sleep 3600 & wait $!; done
`;

/** The environment of the credentials container: the database's settings and Secrets, by reference only. */
function credentialsEnv(db: WorkloadSpec): k8s.types.input.core.v1.EnvVar[] {
    const env: k8s.types.input.core.v1.EnvVar[] = [];
    for (const [name, source] of Object.entries(db.env)) {
        if ("secret" in source) env.push({ name, valueFrom: { secretKeyRef: { name: source.secret, key: source.key } } });
    }
    return env;
}

/**
 * A database pod spec with the credentials container added beside Postgres, sharing its socket
 * directory. `podSpec` is the database's pod spec as {@link WorkloadSpec} describes it.
 */
export function withCredentialsContainer(podSpec: k8s.types.input.core.v1.PodSpec, db: WorkloadSpec): k8s.types.input.core.v1.PodSpec {
    const socket = { name: "postgres-socket", mountPath: SOCKET_DIR };
    const [postgres, ...others] = podSpec.containers as k8s.types.input.core.v1.Container[];
    return {
        ...podSpec,
        containers: [
            { ...postgres!, volumeMounts: [...((postgres!.volumeMounts as k8s.types.input.core.v1.VolumeMount[] | undefined) ?? []), socket] },
            ...others,
            {
                name: CREDENTIALS_CONTAINER,
                image: postgres!.image,
                imagePullPolicy: "IfNotPresent",
                command: ["sh", "-c", CREDENTIALS_SCRIPT, CREDENTIALS_CONTAINER],
                env: credentialsEnv(db),
                envFrom: db.envFrom.map((name) => ({ configMapRef: { name } })),
                volumeMounts: [socket],
                // The pod is ready only once the database has the current passwords.
                readinessProbe: { exec: { command: ["test", "-f", "/tmp/credentials-applied"] }, periodSeconds: 5 },
                resources: { requests: { cpu: "10m", memory: "16Mi" }, limits: { cpu: "100m", memory: "64Mi" } },
            },
        ],
        volumes: [...((podSpec.volumes as k8s.types.input.core.v1.Volume[] | undefined) ?? []), { name: "postgres-socket", emptyDir: {} }],
    };
}

/** Names of the Secrets a workload reads (environment and mounted files). */
export function secretsReadBy(w: WorkloadSpec): string[] {
    const names = Object.values(w.env).flatMap((s) => ("secret" in s ? [s.secret] : []));
    if (w.jwt) names.push(C.jwtSecret);
    return [...new Set(names)].sort();
}

/**
 * `{ [SECRETS_REVISION_ANNOTATION]: "<secret>=<resourceVersion>,..." }` for the Secrets named, or an
 * empty object when it reads none. Kubernetes bumps a Secret's resource version whenever its data
 * changes, so the pod template changes exactly then; the value carries no secret material.
 */
export function secretsRevision(names: readonly string[], secrets: Readonly<Record<string, k8s.core.v1.Secret>>): Record<string, pulumi.Output<string>> {
    if (names.length === 0) return {};
    const versions = names.map((n) => {
        const secret = secrets[n];
        if (!secret) throw new Error(`secretsRevision: no Secret named ${n} among ${Object.keys(secrets).join(", ")}`);
        return pulumi.interpolate`${n}=${secret.metadata.resourceVersion.apply((v) => v ?? "")}`;
    });
    return { [SECRETS_REVISION_ANNOTATION]: pulumi.all(versions).apply((v) => v.join(",")) };
}
