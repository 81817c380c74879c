export { TodayAppointments } from './TodayAppointments';
