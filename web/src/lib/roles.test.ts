import { describe, expect, it } from 'vitest';
import { homePathFor, homeRolesOf, primaryRole, roleOfPath } from './roles';

describe('role homes', () => {
  it('chooses the home by priority admin > ugnik > coordinator > organizator > expert > guest > participant', () => {
    expect(homePathFor(['participant', 'guest'])).toBe('/guest');
    expect(homePathFor(['expert', 'organizator'])).toBe('/organizator');
    expect(homePathFor(['coordinator', 'ugnik', 'participant'])).toBe('/ugnik');
    expect(homePathFor(['participant', 'admin'])).toBe('/admin');
    expect(homePathFor(['participant'])).toBe('/participant');
    expect(homeRolesOf(['participant', 'expert', 'coordinator'])).toEqual([
      'coordinator',
      'expert',
      'participant',
    ]);
  });

  it('has no home for a machine-only account', () => {
    expect(primaryRole(['integration'])).toBeNull();
    expect(homePathFor(['integration'])).toBe('/unauthorized?reason=no_role');
  });

  it('finds the role of a path', () => {
    expect(roleOfPath('/coordinator')).toBe('coordinator');
    expect(roleOfPath('/expert/answers/1')).toBe('expert');
    expect(roleOfPath('/account/password')).toBeNull();
    expect(roleOfPath('/integration')).toBeNull();
  });
});
