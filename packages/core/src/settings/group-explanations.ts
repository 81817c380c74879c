import type { z } from 'zod';
import type { ZAdminPreferences, ZGroupSwitches, ZUserAdminVisiblePreferences } from './preferences.js';

type TExplanations<S extends z.ZodObject> = { readonly [K in keyof z.infer<S>]: string };

/**
 * One plain-English line per group setting, shown beside each switch on the group settings screen
 * (issue 6 contract). From spec-core §3/§4/§5/§6 and spec-lab §6 where they say what a switch does;
 * where they do not, the line says what the stored value will drive. The types make a missing field a
 * compile error; group-explanations.test.ts checks the same against the schemas at run time.
 */
export const GROUP_SETTING_EXPLANATIONS: {
  readonly USER_ADMIN_VISIBLE_PREFERENCES: TExplanations<typeof ZUserAdminVisiblePreferences>;
  readonly GROUP_SWITCHES: TExplanations<typeof ZGroupSwitches>;
  readonly ADMIN_PREFERENCES: TExplanations<typeof ZAdminPreferences>;
} = {
  USER_ADMIN_VISIBLE_PREFERENCES: {
    removeCenterNameWhileUploading:
      "Leaves the center's name (Institution Name) out of the images the center's router uploads.",
    hideStudyDateColumn: 'Hides the Study Date column of the study lists.',
    hideUploadedAtColumn: 'Hides the Uploaded At column of the study lists.',
    amuSpecialCustomization:
      'Turns on the AMU lab customisation: UHID search, category GENERAL on new bills, no bill date or discount edits, the test dashboard for receptionists and the AMU summary PDF.',
    showPatientIdInReportPage: 'Shows the patient id on the report page.',
    hideCenterColumnForVerifier: 'Hides the Center column from verifiers.',
    hideAssignedToForCenter: 'Hides the Assigned To column from center users.',
    showAssignedToInSummaryPage: 'Shows who a study is assigned to on the summary page.',
    hideSummaryPage: 'Hides the summary page from the menu, and the Assigned To column.',
    disableExcelDownloadForAssignor: 'Stops assignors from downloading study lists as Excel.',
    disableReportEditingForCenter: 'Stops center users from editing reports.',
    disableReSignOffOfReport:
      'Stops a signed-off report from being signed off again (and a reported one, for sole doctors and typists).',
    disableZipDownloadingForCenter: 'Stops centers and tele users from downloading study zips.',
    allowReferringDoctorToDownloadZip: 'Lets referring doctors download study zips.',
    disableDownloadZipForDoctor: 'Stops radiologists (sole doctors) from downloading study zips.',
    teleMedSpecificCustomization:
      'Tele-medicine customisation: assignors and centers lose the summary page and zip downloads.',
    enableFullViewerForCenter:
      'Gives center users the full viewer with measurement and annotation tools instead of the basic one.',
    customRouterUrl: 'The address of the router program at the centers, used instead of the default one.',
    doNotSendWhatsappMessage:
      'Sends no WhatsApp messages to patients, and hides Manage patient from center customers.',
    sendCapabilityAtCenter:
      "Lets a center's router send studies onward to a PACS from the center itself; off, its sends are refused.",
    sharingDetailBeforeSend:
      'Center customers add referring doctor details before sending a study for reporting.',
    useInBrowserPythonApp: 'Shows the PACS router page (the router app run in the browser).',
    enableDashboardViewer: 'Shows the Detailed Dashboard to centers.',
    enableReportSearch: 'Shows the report search page.',
    enableElasticReportSummary: 'Shows the advanced report summary page built on the search index.',
    disableCreateTemplateOptionToRadiologist:
      'Stops radiologists (sole doctors) from creating report templates.',
  },
  GROUP_SWITCHES: {
    needBilling: 'Makes the study type required when study details are edited, for billing.',
    allowToSplitStudy: 'Offers Split study, which makes a new study from one not yet split.',
    enableReportRework: 'Offers Rework, which deletes all reports of a study so it is reported again.',
    hideUnlockFromDoctor: 'Hides Unlock from doctors.',
    anonymizePatientForDoctor: 'Radiologists (sole doctors) always get study zips without patient details.',
    downloadReportWithLetterhead: 'Reports are downloaded with the letterhead (header and footer images).',
    appendQrCodeToReport: 'Adds a QR code linking to the report on printed and downloaded reports.',
    enableAuditorAssignmentFeature: 'Offers assigning an auditor to a study.',
    radiologistCanSendToReferringDoctor: 'Lets doctors send a report to the referring doctor.',
    addForwardingPacsFeature:
      "Turns on forwarding studies to PACS, and the doctors' Forwarding PACS setting.",
    enableMultipleZipDownload: 'Lets users download the zips of several selected studies at once.',
    openInWeasis: 'Offers opening a study in the Weasis viewer.',
    openInHoros: 'Offers opening a study in the Horos viewer.',
    enableSecureViewerQrCodeGeneration: 'Offers a QR code that opens the study in the secure viewer.',
    showSubscriptionWarning: 'Shows every user of the group a subscription warning banner.',
    enableSupportChatBot:
      "Shows a chat with the platform's support in the top bar (our own, no third-party widget).",
    showActiveInViewer: 'Shows assignors the three users most recently active in the viewer.',
    enableDraftedForTypist:
      "A typist's saved report leaves the study Drafted (their Drafted tab) instead of Reported.",
    requireOtpForSharedReport:
      "The share page asks for a one-time code sent to the patient's mobile before it shows the report.",
    enableSpeechToText:
      "Speech-to-text for the editor's mic button (doctors and typists with voice typing on); off, the mic button says the voice free trial is over.",
    hideDeletedStudies:
      'Deleted studies leave every study list, and group admins may also mark a study deleted (before it is reported).',
    requirePaymentBeforeReportRelease:
      "While a center's tele invoice is overdue, each report signed off for that center waits for a study payment of its read price.",
    createPatientInRisWithoutShowingDialog:
      'Lab: creates the patient while registering without showing the create patient dialog.',
    appointmentSupportRIS: 'Lab: lets centers create appointment slots and staff book them on bills.',
    enableRISCategory: 'Lab: the bill screen offers patient category and priority.',
    showExtraModalityType: 'Create Study also offers the extra modalities NM, RFDX and CDUS.',
    directPrintRisSubmit: 'Lab: submitting a bill prints it straight away, without the print choices.',
    enableSummaryPdfRIS: 'Lab: the lab summary offers a PDF download.',
    enableDirectHeaderReportPrint: 'Lab: reports print straight away with the header.',
    customMessageForGIC:
      "Lab: a report link sent by SMS or WhatsApp to a patient greets them by name and gives the center's name and phone (its contact info).",
  },
  ADMIN_PREFERENCES: {
    signOffTimeLimit:
      'Minutes after upload by which a study should be signed off (with Show red after TAT, later rows turn red).',
    showRedAfterTAT: 'Shows assignors and verifiers unsigned studies past the sign-off time limit in red.',
    durationOfBackupInMonth: 'Months a study can still be downloaded; older studies are refused.',
    shareLinkValidityDays: 'Days a share link opens after it was made; empty means it never expires.',
    displayTimeZone:
      'The time zone (IANA name, e.g. Asia/Kolkata for +05:30) every page and document of the group shows times in, labelled.',
    appDomain: 'The web address of the group; users signed in at another address are sent there.',
    enableLoginAuditLogs:
      'Users (except center users and group admins) sign in only from devices a group admin approved.',
    anonymizeZipType: 'Which study zips leave out patient details: none, sole doctors only, or all.',
    criticalResultEscalationMinutes:
      'Minutes (5 to 1440) an unacknowledged critical result waits before it goes to the group admins by SMS and e-mail; empty means 30.',
  },
};

const LAB = 'the lab module';
const ROUTER = 'the local router';
const SUMMARY = 'the report summary';

/**
 * Group settings whose screens or calls are not built yet (issue 6 §3: "where its screen is built by
 * a later issue, the stored value is ready for it"): what brings them. The group settings screen says
 * so beside the switch, so an admin never wonders why a switch does nothing yet. Remove a line when
 * its screen lands.
 */
export const GROUP_SETTING_ARRIVES_WITH: Readonly<Record<string, string>> = {
  customRouterUrl: ROUTER,
  showAssignedToInSummaryPage: SUMMARY,
  disableExcelDownloadForAssignor: SUMMARY,
  createPatientInRisWithoutShowingDialog: LAB,
  enableRISCategory: LAB,
  directPrintRisSubmit: LAB,
  enableSummaryPdfRIS: LAB,
  enableDirectHeaderReportPrint: LAB,
  customMessageForGIC: LAB,
};
