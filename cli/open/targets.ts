/**
 * The platform's web interfaces `mara open` reaches without DNS (MARA's port-forward script, as a command):
 * which Service of which namespace, on which of its ports, and what to tell the user about logging in.
 */
import { DEFAULTS } from "../../contracts/defaults";

/** One interface. */
export interface OpenTarget {
    readonly title: string;
    /** Namespace, given the application's (the only one a stack can move). */
    readonly namespace: (applicationNamespace: string) => string;
    readonly service: string;
    /** The Service's port (its number). */
    readonly port: number;
    /** Path to print after the local address. */
    readonly path: string;
    /** How to log in, when it needs a login. */
    readonly login?: string;
}

/** The interfaces by the name `mara open` takes. */
export const OPEN_TARGETS: Readonly<Record<string, OpenTarget>> = {
    sirius: {
        title: "Bank of Sirius",
        namespace: (app) => app,
        service: "frontend",
        port: 80,
        path: "/",
        login: "the demo user: pulumi stack output demo_login --show-secrets",
    },
    grafana: {
        title: "Grafana",
        namespace: () => DEFAULTS.prometheus.namespace,
        service: "prometheus-grafana",
        port: 80,
        path: "/",
        login: "admin, with the password of: kubectl -n prometheus get secret prometheus-grafana -o jsonpath='{.data.admin-password}' | base64 -d",
    },
    kibana: {
        title: "Kibana",
        namespace: () => DEFAULTS.logstore.namespace,
        service: "kibana-kb-http",
        port: 5601,
        path: "/",
        login: "elastic, with the password of: kubectl -n logstore get secret elastic-es-elastic-user -o jsonpath='{.data.elastic}' | base64 -d",
    },
    prometheus: { title: "Prometheus", namespace: () => DEFAULTS.prometheus.namespace, service: "prometheus-kube-prometheus-prometheus", port: 9090, path: "/" },
    alertmanager: { title: "Alertmanager", namespace: () => DEFAULTS.prometheus.namespace, service: "prometheus-kube-prometheus-alertmanager", port: 9093, path: "/" },
    elasticsearch: {
        title: "Elasticsearch",
        namespace: () => DEFAULTS.logstore.namespace,
        service: "elastic-es-http",
        port: 9200,
        path: "/",
        login: "elastic, as for kibana",
    },
};

/** The names, for help and messages. */
export const OPEN_TARGET_NAMES = Object.keys(OPEN_TARGETS);
