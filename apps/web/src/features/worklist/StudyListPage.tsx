import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import {
  MESSAGES,
  canManagePeople,
  type TStudyListKind,
  type TStudyListRoute,
  type TStudyTab,
  hasRole,
  listCallPathForList,
  listKindForUser,
  resolveTab,
  tableKeyForList,
  tabsForList,
} from '@radflow/core';
import { Suspense, useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { useSignedInSession } from '../auth/session';
import { TypistDoctorGate } from '../typist-gate/TypistDoctorGate';
import { localStore } from './browser-storage';
import { doctorsForTypist, hasDoctorRoleInUserMap, keepContextDoctor, readContextDoctor } from './list-user';
import { StudyListView } from './StudyListView';
import { readRememberedTab, rememberTab } from './tab-memory';
import { preloadable } from '../../lib/preloadable';

const TITLES: Record<TStudyListRoute, string> = { '/': 'Study list', '/status': 'Manage report' };

// A new group's checklist (issue 26 §4): its own chunk, loaded only on a group admin's home list.
const GettingStartedCard = preloadable(() => import('../signup/GettingStartedCard'));

/**
 * The study list of a route (spec-core §2 Study list screens): which list the user sees (core
 * listKindForUser), its tabs (core tabsForList) with the remembered one selected, and for a typist
 * the doctor gate first (spec-core §6).
 */
export function StudyListPage({ route }: { route: TStudyListRoute }) {
  const { roles, flags, mapping, user } = useSignedInSession();
  const kind = listKindForUser(
    { roles, hasDoctorRoleInUserMap: hasDoctorRoleInUserMap(mapping, user.email) },
    flags,
    route,
  );
  if (!kind) return <Alert severity="warning">{MESSAGES.notAllowed}</Alert>;
  // A new list kind (a setting changed) starts from its own remembered tab and search.
  return <StudyListOfKind key={kind} kind={kind} route={route} />;
}

function StudyListOfKind({ kind, route }: { kind: TStudyListKind; route: TStudyListRoute }) {
  const { roles, mapping, user, flags } = useSignedInSession();
  const isTypist = hasRole(roles, 'ROLE_TYPIST') && !hasRole(roles, 'ROLE_DOCTOR');
  // The typist's "drafted setting" (spec-core §2) is the group switch enableDraftedForTypist
  // (apps/server/src/modules/reporting/DECISIONS.md): a typist's save then gives DRAFTED.
  const tabs = tabsForList(kind, { isTypist, draftedSetting: flags.enableDraftedForTypist });
  const [tab, setTab] = useState<TStudyTab>(() =>
    resolveTab(tabs, readRememberedTab(localStore(), user.email, kind)),
  );
  const doctors = doctorsForTypist(mapping);
  const [contextDoctor, setContextDoctor] = useState<string | null>(() =>
    isTypist ? readContextDoctor(localStore(), user.email, doctors) : null,
  );
  const title = TITLES[route];

  const chooseDoctor = (doctor: string | null) => {
    keepContextDoctor(localStore(), user.email, doctor);
    setContextDoctor(doctor);
  };

  if (isTypist && !contextDoctor) {
    return (
      <>
        <PageHeader title={title} />
        <TypistDoctorGate place="study-list" onChoose={chooseDoctor} />
      </>
    );
  }

  return (
    <StudyListView
      title={title}
      kind={kind}
      tableKey={tableKeyForList(kind)}
      path={listCallPathForList(kind)}
      contextDoctor={contextDoctor}
      tabs={{
        all: tabs,
        selected: tab,
        onSelect: (next) => {
          rememberTab(localStore(), user.email, kind, next.key);
          setTab(next);
        },
      }}
      banner={
        route === '/' &&
        canManagePeople(roles) && (
          <Suspense fallback={null}>
            <GettingStartedCard />
          </Suspense>
        )
      }
      headerActions={
        contextDoctor && (
          <Button color="inherit" onClick={() => chooseDoctor(null)} aria-label="Change doctor">
            Typing for {contextDoctor}
          </Button>
        )
      }
    />
  );
}

export function HomeStudyListPage() {
  return <StudyListPage route="/" />;
}

export function CenterReportListPage() {
  return <StudyListPage route="/status" />;
}
