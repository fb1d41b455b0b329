/**
 * The Platform's arguments from the validated configuration and the cluster the provider factory built:
 * the one place where `mara:*` settings become add-on arguments. Components never see the config.
 */
import type { AlertingArgs } from "../components/alerts/receivers";
import type { PlatformArgs } from "../components/platform";
import type { ClusterInfrastructure } from "../contracts";
import type { MaraConfig } from "../config";
import { ARGOCD_NAMESPACE } from "../components/argoCd/applications";
import { certManagerArgsFromSettings } from "../components/certManager/args";
import { metalLbArgsFromSettings } from "../components/metalLb/args";
import { prometheusArgsFromSettings } from "../components/prometheus/args";
import { observabilityArgsFromSettings } from "../components/observability/args";
import { nfsStorageArgsFromSettings } from "../components/nfsStorage/args";
import { logstoreArgsFromSettings } from "../components/logstore/args";
import { logAgentArgsFromSettings } from "../components/logAgent/args";
import { admissionPoliciesArgsFromSettings } from "../components/admissionPolicies/args";
import { ingressControllerArgsFromSettings } from "../components/ingressController/args";

/** Whether the platform installs Argo CD in its cluster (`mara:delivery gitops` with `mara:gitopsArgoCd install`). */
export const installsArgoCd = (cfg: MaraConfig): boolean => cfg.gitops.delivery === "gitops" && cfg.gitops.argoCd === "install";

/** Maps the configuration onto the Platform's per-add-on arguments. */
export function platformArgsFromConfig(cfg: MaraConfig, cluster: ClusterInfrastructure): PlatformArgs {
    const containerLogPath = cfg.platformOverrides.containerLogPath ?? cluster.platform.containerLogPath;
    const metalLb = metalLbArgsFromSettings(cfg.metalLb);
    const nfsStorage = nfsStorageArgsFromSettings(cfg.nfsStorage);
    return {
        cluster: { ...cluster.platform, containerLogPath },
        registry: cluster.registry,
        ingressController: ingressControllerArgsFromSettings(cfg.ingressController, cfg.fqdn),
        certManager: certManagerArgsFromSettings(cfg.certManager),
        logstore: logstoreArgsFromSettings(cfg.logstore),
        logAgent: logAgentArgsFromSettings(cfg.logAgent),
        prometheus: prometheusArgsFromSettings(cfg.prometheus, alertingArgsFromConfig(cfg), cfg.alerting.runbookUrl),
        observability: observabilityArgsFromSettings(cfg.observability),
        storage: {
            className: cfg.storageClass,
            retainVolumes: cfg.teardown.retainVolumes,
            ...(nfsStorage ? { nfsStorage } : {}),
        },
        ...(metalLb ? { metalLb } : {}),
        secrets: {
            grafanaAdminPassword: cfg.prometheus.grafanaAdminPassword,
            accountsDbPassword: cfg.application.accountsPassword,
            ledgerDbPassword: cfg.application.ledgerPassword,
            demoUser: cfg.application.demoUser,
            demoPassword: cfg.application.demoPassword,
        },
        protectData: cfg.teardown.protectData,
        // The platform's namespaces outside the Platform: the application's, and Argo CD's where the platform installs it.
        admissionPolicies: admissionPoliciesArgsFromSettings(cfg.admissionPolicies, [cfg.application.namespace, ...(installsArgoCd(cfg) ? [ARGOCD_NAMESPACE] : [])]),
    };
}

/** Alertmanager's receivers and repeat intervals from the `mara:alert*` keys. */
export function alertingArgsFromConfig(cfg: MaraConfig): AlertingArgs {
    const { slack, pagerDuty, email, webhook, criticalRepeatInterval, warningRepeatInterval } = cfg.alerting;
    return {
        ...(slack ? { slack: { ...slack } } : {}),
        ...(pagerDuty ? { pagerDuty: { ...pagerDuty } } : {}),
        ...(email ? { email: { ...email, to: [...email.to] } } : {}),
        ...(webhook ? { webhook: { ...webhook } } : {}),
        criticalRepeatInterval,
        warningRepeatInterval,
    };
}
