import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import {
  PATIENT_DESIGNATIONS,
  PATIENT_GENDERS,
  type TAllPatientSearch,
  type TLabPatient,
  type TLabPatientSort,
} from '@radflow/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { formatTimestamp } from '../../lib/format';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { useSignedInSession } from '../auth/session';
import { LabTable, type TLabColumn, type TLabPaging } from './LabTable';
import { PatientDialog } from './PatientDialog';
import { LAB_PATIENTS_QUERY_ROOT, searchAllPatients } from './lab-patients-api';
import { GENDER_LABELS, SEARCH_DEBOUNCE_MS } from './lab-form';

const COLUMNS: ReadonlyArray<TLabColumn<TLabPatientSort>> = [
  { label: 'UHID', sort: 'uhidNumber' },
  { label: 'Name', sort: 'name' },
  { label: 'Age' },
  { label: 'Gender' },
  { label: 'Mobile', sort: 'mobileNumber' },
  { label: 'Registered', sort: 'createdAt' },
  { label: 'Actions', align: 'right' },
];

interface TFilters {
  name: string;
  mobileNumber: string;
  uhidNumber: string;
  designation: string;
  gender: string;
}
const NO_FILTERS: TFilters = { name: '', mobileNumber: '', uhidNumber: '', designation: '', gender: '' };

/**
 * /lab/edit-patient-details (spec-lab §2): every patient of the lab, searched by name, mobile, UHID
 * (only under the group switch amuSpecialCustomization, spec-lab §5), designation and gender; paged
 * and sorted on the server; Create Patient, and Edit on each row.
 */
export function EditPatientDetailsPage() {
  const { flags } = useSignedInSession();
  const uhidSearch = flags.amuSpecialCustomization;
  const [filters, setFilters] = useState<TFilters>(NO_FILTERS);
  const [paging, setPaging] = useState<TLabPaging<TLabPatientSort>>({
    page: 0,
    size: 20,
    orderingCriteria: 'id',
    sortOrder: 'DESC',
  });
  const [editing, setEditing] = useState<TLabPatient | 'new' | null>(null);
  const settled = useDebouncedValue(filters, SEARCH_DEBOUNCE_MS);
  const body: Partial<TAllPatientSearch> = {
    ...paging,
    ...(settled.name.trim() ? { name: settled.name.trim() } : {}),
    ...(settled.mobileNumber.trim() ? { mobileNumber: settled.mobileNumber.trim() } : {}),
    ...(uhidSearch && settled.uhidNumber.trim() ? { uhidNumber: settled.uhidNumber.trim() } : {}),
    ...(settled.designation ? { designation: settled.designation as TAllPatientSearch['designation'] } : {}),
    ...(settled.gender ? { gender: settled.gender as TAllPatientSearch['gender'] } : {}),
  };
  const query = useQuery({
    queryKey: [...LAB_PATIENTS_QUERY_ROOT, 'all', body],
    queryFn: ({ signal }) => searchAllPatients(body, signal),
    placeholderData: keepPreviousData,
  });
  const setFilter = (key: keyof TFilters, value: string) => {
    setFilters((f) => ({ ...f, [key]: value }));
    setPaging((p) => ({ ...p, page: 0 }));
  };
  const patients = query.data?.content ?? [];
  const text = (key: keyof TFilters, label: string) => (
    <TextField
      size="small"
      label={label}
      value={filters[key]}
      onChange={(e) => setFilter(key, e.target.value)}
      sx={{ minWidth: 160 }}
    />
  );
  const select = (key: 'designation' | 'gender', label: string, options: ReadonlyArray<[string, string]>) => (
    <TextField
      select
      size="small"
      label={label}
      value={filters[key]}
      onChange={(e) => setFilter(key, e.target.value)}
      sx={{ minWidth: 140 }}
    >
      <MenuItem value="">All</MenuItem>
      {options.map(([value, label]) => (
        <MenuItem key={value} value={value}>
          {label}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Box component="section">
      <PageHeader
        title="Edit Patient Details"
        actions={
          <Button variant="contained" onClick={() => setEditing('new')}>
            Create Patient
          </Button>
        }
      />
      <Box
        sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', mb: 2 }}
        role="search"
        aria-label="Patient search"
      >
        {text('name', 'Name')}
        {text('mobileNumber', 'Mobile')}
        {uhidSearch && text('uhidNumber', 'UHID')}
        {select(
          'designation',
          'Designation',
          PATIENT_DESIGNATIONS.map((d) => [d, d]),
        )}
        {select(
          'gender',
          'Gender',
          PATIENT_GENDERS.map((g) => [g, GENDER_LABELS[g]]),
        )}
      </Box>
      <LabTable
        label="Patients"
        columns={COLUMNS}
        fetching={query.isFetching}
        empty={!query.isPending && patients.length === 0}
        total={query.data?.totalElements ?? 0}
        paging={paging}
        onPaging={setPaging}
      >
        {patients.map((p) => (
          <TableRow key={p.id}>
            <TableCell>{p.uhidNumber}</TableCell>
            <TableCell>{`${p.designation} ${p.name}`}</TableCell>
            <TableCell>{p.ageString}</TableCell>
            <TableCell>{GENDER_LABELS[p.gender]}</TableCell>
            <TableCell>{p.mobileNumber}</TableCell>
            <TableCell>{formatTimestamp(p.createdAt, { label: false })}</TableCell>
            <TableCell align="right">
              <Button
                size="small"
                onClick={() => setEditing(p)}
                aria-label={`Edit ${p.name} (${p.uhidNumber})`}
              >
                Edit
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </LabTable>
      {editing !== null && (
        <PatientDialog patient={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </Box>
  );
}

export default EditPatientDetailsPage;
