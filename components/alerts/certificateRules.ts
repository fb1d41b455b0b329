/**
 * Alerts on certificates, from cert-manager's metrics (cert-manager v1.21.1, internal/collectors/certificate_collector.go:
 * `certmanager_certificate_expiration_timestamp_seconds` and `certmanager_certificate_ready_status`, each labelled with
 * the Certificate's `name` and `namespace`). The platform scrapes cert-manager keeping those labels
 * (prometheus/component.ts, `honorLabels`), so an alert names the namespace of the Certificate, not cert-manager's.
 *
 * cert-manager renews a certificate when two thirds of its lifetime have passed (a 90-day ACME certificate 30 days
 * before it expires): 21 days left means renewal has failed for over a week, 7 days that it must be fixed now.
 */
import type { AlertRuleGroup } from "./rules";

/** Where cert-manager's metrics are scraped from. */
export interface CertificateAlertTarget {
    /** Namespace of cert-manager and its metrics Service. */
    readonly namespace: string;
    /** The metrics Service's name: Prometheus's `job` label of its targets. */
    readonly job: string;
}

/** Days before expiry at which a certificate is a warning, and critical. */
export const CERTIFICATE_EXPIRY_DAYS = { warning: 21, critical: 7 } as const;

/** The certificates' alerts. */
export function certificateRules(t: CertificateAlertTarget): AlertRuleGroup {
    const left = "(certmanager_certificate_expiration_timestamp_seconds - time())";
    const expiring = (days: number) => `${left} < ${days} * 86400`;
    return {
        component: "certificates",
        name: "mara.certificates",
        rules: [
            {
                alert: "CertificateExpiresSoon",
                expr: expiring(CERTIFICATE_EXPIRY_DAYS.warning),
                for: "1h",
                severity: "warning",
                summary: "Certificate {{ $labels.namespace }}/{{ $labels.name }} expires in {{ $value | humanizeDuration }}",
                description: `cert-manager renews a certificate a third of its lifetime before it expires; with less than ${CERTIFICATE_EXPIRY_DAYS.warning} days left it has been failing to for a while. The Certificate's events and its CertificateRequests say why.`,
            },
            {
                alert: "CertificateExpiresSoon",
                expr: expiring(CERTIFICATE_EXPIRY_DAYS.critical),
                for: "10m",
                severity: "critical",
                summary: "Certificate {{ $labels.namespace }}/{{ $labels.name }} expires in {{ $value | humanizeDuration }}",
                description: `Less than ${CERTIFICATE_EXPIRY_DAYS.critical} days before the certificate expires, and cert-manager has not renewed it: browsers will refuse the site when it does.`,
            },
            {
                alert: "CertificateNotReady",
                expr: 'max by (namespace, name) (certmanager_certificate_ready_status{condition="False"}) == 1',
                for: "15m",
                severity: "warning",
                summary: "Certificate {{ $labels.namespace }}/{{ $labels.name }} is not ready",
                description: "cert-manager has not issued the certificate for 15 minutes (its Ready condition is False): the Ingress serves no certificate, or a stale one.",
            },
            {
                alert: "CertManagerDown",
                expr: `absent(up{namespace="${t.namespace}", job="${t.job}"} == 1)`,
                for: "10m",
                severity: "warning",
                labels: { namespace: t.namespace },
                summary: "cert-manager does not answer Prometheus",
                description: `The cert-manager controller (job ${t.job} in ${t.namespace}) has served no metrics for 10 minutes: certificates are neither issued nor renewed, and their expiry is not watched.`,
            },
        ],
    };
}
