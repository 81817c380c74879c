import {
  effectiveRoles,
  groupFlags,
  type TCurrentUser,
  type TMenuContext,
  type TUserPreferences,
} from '@radflow/core';

/**
 * What the core menu and route rules read about a user (spec-core §2 Menu per role): the effective
 * roles (ROLE_OFFLINE_HYBRID replaces them in hybrid mode), the group switches that add or hide menu
 * items, the tele-user flag that hides the setting page, and whether the user answers support.
 */
export function buildMenuContext(
  user: Pick<TCurrentUser, 'roles' | 'hybridModeOn' | 'answersSupport'>,
  preferences: TUserPreferences,
  teleInfo: { teleUser: boolean },
): TMenuContext {
  const flags = groupFlags(preferences);
  return {
    roles: effectiveRoles(user.roles, user.hybridModeOn),
    enableElasticReportSummary: flags.enableElasticReportSummary,
    useInBrowserPythonApp: flags.useInBrowserPythonApp,
    enableReportSearch: flags.enableReportSearch,
    enableDashboardViewer: flags.enableDashboardViewer,
    doNotSendWhatsappMessage: flags.doNotSendWhatsappMessage,
    disableCreateTemplateOptionToRadiologist: flags.disableCreateTemplateOptionToRadiologist,
    amuSpecialCustomization: flags.amuSpecialCustomization,
    hideSummaryPage: flags.hideSummaryPage,
    teleMedSpecificCustomization: flags.teleMedSpecificCustomization,
    teleUser: teleInfo.teleUser,
    answersSupport: user.answersSupport,
  };
}
