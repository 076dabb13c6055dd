// The job status part of a service profile (§3/§4.4/§4.6): its format is stated with the others in profileFormat.ts.
export { checkJobStatusProfile, type JobStatusPart, type JobStatusProfile } from './profileFormat';
