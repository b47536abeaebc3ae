/** The coordinator's accommodations: the calls of one student's dialog and of the selected ones. */
import { getAccommodations, setAccommodations, setManyAccommodations } from '../api/accommodations';
import type { AccommodationsCalls } from '../../../components/accommodations/student-accommodations-modal';

/** The coordinator's calls for one student's profile. */
export const coordinatorAccommodationsCalls: AccommodationsCalls = {
  load: getAccommodations,
  save: setAccommodations,
};

/** The coordinator's call for the same profile for the selected students. */
export const coordinatorBulkAccommodations = setManyAccommodations;
