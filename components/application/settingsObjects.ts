/**
 * The objects that hold the application's settings in the cluster: non-secret ones in ConfigMaps, passwords, the demo
 * login and the JWT key pair in Secrets that pods read through `secretKeyRef` (never literal env values). Not the
 * unit's settings.ts, which is its section of the stack's configuration.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import * as tls from "@pulumi/tls";
import type { ResolvedApplicationArgs } from "./componentArgs";
import { metadata, SiriusScope } from "./scope";
import { SIRIUS_CONFIG as C } from "./workloadSpecs";

/** The ConfigMaps and Secrets the workloads read; they wait for all of them. */
export interface SiriusSettings {
    /** Non-secret settings. */
    readonly configMaps: k8s.core.v1.ConfigMap[];
    /** Passwords, database URIs, the demo login and the JWT key pair. */
    readonly secrets: k8s.core.v1.Secret[];
    /** The same Secrets by object name, for the annotations that roll pods when one changes. */
    readonly secretsByName: Readonly<Record<string, k8s.core.v1.Secret>>;
}

/** Creates the settings objects. The JWT key pair is a `tls.PrivateKey`, stable across runs (MARA generated a new one each time). */
export function siriusSettings(scope: SiriusScope, a: ResolvedApplicationArgs): SiriusSettings {
    const child = { parent: scope.parent };
    const configMap = (id: string, objectName: string, data: pulumi.Input<Record<string, pulumi.Input<string>>>) =>
        new k8s.core.v1.ConfigMap(`${scope.name}-${id}`, { metadata: metadata(scope, objectName), data }, child);
    const secretsByName: Record<string, k8s.core.v1.Secret> = {};
    const secret = (id: string, objectName: string, stringData: Record<string, pulumi.Input<string>>) =>
        (secretsByName[objectName] = new k8s.core.v1.Secret(
            `${scope.name}-${id}`,
            { metadata: metadata(scope, objectName), type: "Opaque", stringData: pulumi.secret(pulumi.output(stringData)) },
            child,
        ));

    const configMaps = [
        configMap("environment", C.environment, { LOCAL_ROUTING_NUM: "883745000", PUB_KEY_PATH: "/root/.ssh/publickey" }),
        configMap("service-api", C.serviceApi, {
            TRANSACTIONS_API_ADDR: "ledgerwriter:8080",
            BALANCES_API_ADDR: "balancereader:8080",
            HISTORY_API_ADDR: "transactionhistory:8080",
            CONTACTS_API_ADDR: "contacts:8080",
            USERSERVICE_API_ADDR: "userservice:8080",
        }),
        configMap("tracing", C.tracing, tracingConfig(a.tracingEndpoint)),
        configMap("demo-data", C.demoData, { USE_DEMO_DATA: "True" }),
        configMap("accounts-db", C.accountsDb, { POSTGRES_DB: a.accountsDb.database, POSTGRES_USER: a.accountsDb.user }),
        configMap("ledger-db", C.ledgerDb, {
            POSTGRES_DB: a.ledgerDb.database,
            POSTGRES_USER: a.ledgerDb.user,
            SPRING_DATASOURCE_URL: `jdbc:postgresql://ledger-db:5432/${a.ledgerDb.database}`,
            SPRING_DATASOURCE_USERNAME: a.ledgerDb.user,
        }),
        configMap("accounts-db-init", C.accountsDbInit, { "2-demo-login.sh": DEMO_LOGIN_SCRIPT }),
    ];
    const jwtKey = new tls.PrivateKey(`${scope.name}-jwt`, { algorithm: "RSA", rsaBits: 2048 }, child);
    const secrets = [
        secret("accounts-db-credentials", C.accountsDbSecret, {
            POSTGRES_PASSWORD: a.accountsDb.password,
            ACCOUNTS_DB_URI: pulumi.interpolate`postgresql://${a.accountsDb.user}:${a.accountsDb.password}@accounts-db:5432/${a.accountsDb.database}`,
        }),
        secret("ledger-db-credentials", C.ledgerDbSecret, {
            POSTGRES_PASSWORD: a.ledgerDb.password,
            SPRING_DATASOURCE_PASSWORD: a.ledgerDb.password,
        }),
        secret("demo-login", C.demoLoginSecret, { DEMO_LOGIN_USERNAME: a.demoLogin.username, DEMO_LOGIN_PASSWORD: a.demoLogin.password }),
        secret("jwt-key", C.jwtSecret, { "jwtRS256.key": jwtKey.privateKeyPem, "jwtRS256.key.pub": jwtKey.publicKeyPem }),
    ];
    return { configMaps, secrets, secretsByName };
}

/** Settings of the tracing ConfigMap. Python services trace whenever ENABLE_TRACING is non-empty and an endpoint is set. */
function tracingConfig(endpoint: pulumi.Input<string> | undefined): pulumi.Input<Record<string, pulumi.Input<string>>> {
    if (endpoint === undefined) return { ENABLE_TRACING: "false", ENABLE_METRICS: "true" };
    return { OTEL_EXPORTER_OTLP_ENDPOINT: pulumi.interpolate`http://${endpoint}`, ENABLE_TRACING: "true", ENABLE_METRICS: "true" };
}

/**
 * Init script for the accounts database. The image's demo data gives every demo user the password
 * "password"; this gives the configured demo login its configured password (creating the user from the
 * demo user `testuser` when it is another name). Runs once, when the database volume is initialised.
 */
export const DEMO_LOGIN_SCRIPT = `#!/bin/bash
set -euo pipefail
if [ "\${USE_DEMO_DATA:-}" != "True" ]; then exit 0; fi
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \\
  -v login="$DEMO_LOGIN_USERNAME" -v password="$DEMO_LOGIN_PASSWORD" <<'SQL'
CREATE EXTENSION IF NOT EXISTS pgcrypto;
INSERT INTO users (accountid, username, passhash, firstname, lastname, birthday, timezone, address, state, zip, ssn)
  SELECT '10' || lpad((floor(random() * 100000000))::bigint::text, 8, '0'), :'login', ''::bytea,
         firstname, lastname, birthday, timezone, address, state, zip, ssn
  FROM users WHERE username = 'testuser' AND NOT EXISTS (SELECT 1 FROM users WHERE username = :'login');
UPDATE users SET passhash = convert_to(crypt(:'password', gen_salt('bf', 12)), 'UTF8') WHERE username = :'login';
SQL
`;
