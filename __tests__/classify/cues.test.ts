// The rules that bound the model: what counts as a line asking for action, and as notes that
// call a change breaking. The lines are made up, each in the shape of a real line it stands for (same wording
// where it matters, the same findings of the detectors).
import { describe, expect, it } from '@jest/globals'
import { cuesOf, sentenceAt, type Cue } from '../../src/classify/cues.js'
import { featuresOfNotes } from '../../src/classify/judge.js'
import { detect } from '../../src/classify/detectors.js'
import { classifyReleases } from '../../src/classify/index.js'

function cues(notes: string) {
  const f = featuresOfNotes(notes, '1.2.3')
  if (!f.rf) throw new Error('no features')
  const c = cuesOf(f.rf.units)
  // The line a cue found and why: its detector, or the heading it sits under.
  const found = (cue: Cue | null) =>
    cue && { line: cue.ue.unit.text, detector: cue.hit?.detector.name ?? `heading ${cue.heading}` }
  return {
    required: c.required && c.required.hit?.detector.name,
    action: found(c.action),
    called: c.called && { line: c.called.ue.unit.text, detector: c.called.hit?.detector.name ?? null },
    changed: c.changed && { line: c.changed.ue.unit.text, heading: c.changed.heading },
    security: found(c.security)
  }
}

describe('a security fix (never safe: the rubric counts one as caution)', () => {
  it('is a line with a security word, or any line under a security heading', () => {
    expect(cues('- Fix a crash\n- Fix XSS in the login form').security).toEqual({
      line: 'Fix XSS in the login form',
      detector: 'securityWord'
    })
    expect(cues('### Security\n\n- Escape names in the admin list').security).toEqual({
      line: 'Escape names in the admin list',
      detector: 'heading security'
    })
  })
  it('is a line that secures something: "… and secured the archive action"', () => {
    const line =
      'Demo Board - Fixed an issue that stopped cards from loading, and exposed and secured the archive action'
    expect(cues(`- Fix a crash\n- ${line}`).security).toEqual({ line, detector: 'securityWord' })
    expect(cues('- Fix a crash\n- Fix problems with secure websockets').security).toBeNull()
  })
  it('is a fix of who may see or do what, whether or not the notes say "security"', () => {
    expect(cues('- Fix a crash\n- Require admin access permission to list link shares').security).toEqual({
      line: 'Require admin access permission to list link shares',
      detector: 'accessControl'
    })
    expect(cues('- Fix a crash\n- Enforce authentication on the image endpoint').security?.detector).toBe(
      'accessControl'
    )
    expect(cues('- Fix a crash\n- Faster thumbnails').security).toBeNull()
  })
  it('is not an addition about access, nor the permissions of files', () => {
    expect(cues('### Features\n\n- Support for authenticated media has been added').security).toBeNull()
    expect(cues('- Add OIDC authentication').security).toBeNull()
    expect(cues('- OAuth: Support Demo authentication with one-time codes').security).toBeNull()
    expect(cues('- Fix log folder permissions').security).toBeNull()
    expect(cues('- Removing read-only files failed with a permission error').security).toBeNull()
  })
  it('is not internal work, tests or documentation', () => {
    expect(cues('- Fix a crash\n- test: cover the CSRF token check').security).toBeNull()
    expect(cues('### Documentation\n\n- Describe the security model').security).toBeNull()
    expect(cues('- Fix a crash\n- Add a search box').security).toBeNull()
  })
})

describe('a change the rubric counts as caution (never safe)', () => {
  it('is a line under a deprecations, "Changed" or configuration-changes heading', () => {
    expect(cues('### Changed\n\n- The cache now expires after an hour').changed).toEqual({
      line: 'The cache now expires after an hour',
      heading: 'changed'
    })
    expect(cues('## Deprecations\n\n- The v1 API').changed?.heading).toBe('deprecated')
    expect(cues('## Configuration changes\n\n- `cache.ttl` takes a duration').changed?.heading).toBe('config')
    expect(cues('### Changed\n\n- Rework the login page').changed?.heading).toBe('changed')
  })
  it('is not translations or a dependency bump that a "Changed" heading holds', () => {
    expect(cues('### Changed\n\n- Various dependency updates.').changed).toBeNull()
    expect(cues('### Changed\n\n- Updated translations').changed).toBeNull()
    expect(cues('### Changed\n\n- Bump Go to 1.22.3').changed).toBeNull()
    // Unless the line says more than the routine: a raised requirement, a default.
    expect(cues('### Changed\n\n- Updated translations; the default language is now English').changed).not.toBeNull()
  })
  it('is a line that announces itself so: "Changed: …", "[Change] …", "Deprecated: …"', () => {
    expect(cues('- Fixed: a crash\n- Changed: Demo sync, the retry count is now set to 3').changed).toEqual({
      line: 'Changed: Demo sync, the retry count is now set to 3',
      heading: 'changed'
    })
    expect(cues('- [Change] Cron expressions follow apscheduler').changed?.heading).toBe('changed')
    expect(cues('- Deprecated: the v1 API').changed?.heading).toBe('deprecated')
    expect(cues('- Changelog: see the site').changed).toBeNull()
  })
  it('is not a line under other headings, nor tests or internal work', () => {
    expect(cues('### Fixed\n\n- The cache now expires after an hour').changed).toBeNull()
    expect(cues('### Changed\n\n- test: cover the cache expiry').changed).toBeNull()
  })
  it('is a line that says a default changed, not one that adds a way to change it or fixes one', () => {
    const line = 'Upload Size - Raised the default upload size limit from 10 to 50 megabytes'
    expect(cues(`- Fix a crash\n- ${line}`).changed).toEqual({ line, heading: null })
    expect(cues('- The log level now defaults to info').changed).not.toBeNull()
    expect(cues('- updated default email template texts for consistency').changed).not.toBeNull()
    expect(cues('- Add an option to change the default theme').changed).toBeNull()
    expect(cues('- Fixed the default User-Agent string').changed).toBeNull()
  })
  it('is a line that checks more strictly, even as a fix, or names the new behaviour', () => {
    const line = 'BUGFIX: Use stricter parsing for Demo host inputs (alice) #9003'
    expect(cues(`- Fix a crash\n- ${line}`).changed).toEqual({ line, heading: null })
    expect(cues('- Responses from DoH upstreams are now validated more strictly.').changed).not.toBeNull()
    expect(cues('- Fix a crash in strict mode').changed).toBeNull()
    const warn = '[server] Log refused Demo logins and warn about new behavior (#9004)'
    expect(cues(`- Fix a crash\n- ${warn}`).changed).toEqual({ line: warn, heading: null })
    expect(cues('- Fix a crash\n- Note that the config file format changed').changed).not.toBeNull()
    expect(cues('- Fix a crash\n- The settings format is now YAML.').changed).not.toBeNull()
  })
  it('is a line that deprecates something, not code that used something deprecated nor a fixed warning', () => {
    const line = 'Add a deprecation warning to ./configure: use CMake instead'
    expect(cues(`- Fix a crash\n- ${line}`).changed).toEqual({ line, heading: null })
    expect(cues('- Fix a crash\n- The `--legacy` flag is deprecated').changed).not.toBeNull()
    // Its removal comes later; the deprecation is news now.
    expect(cues('- Fix a crash\n- The `demo_legacy` option is deprecated; Demo 3 will drop it.').changed).not.toBeNull()
    expect(cues('- Fix a crash\n- API v1 may be deprecated later').changed).toBeNull()
    expect(cues('- Fix a crash\n- Updated Demo code that had been calling a deprecated API').changed).toBeNull()
    expect(cues('- Fix a crash\n- Fixed Qt 6 deprecation warnings.').changed).toBeNull()
    // Warnings the release removes or that sit under a fixes heading are gone, not news of a deprecation.
    expect(cues('- Fix a crash\n- Remove the PHP 8.4 deprecation warnings').changed).toBeNull()
    expect(cues('### Fixed\n- PHP 8.4 deprecation warnings in the demo importer').changed).toBeNull()
    expect(
      cues('### Fixed\n- The demo_sync option is deprecated; its deprecation warnings are fixed').changed
    ).not.toBeNull()
  })
  it('is a move to another base image, not a bump of its tag', () => {
    const line = 'Feature: Upgrade underlying Docker image to Trixie'
    expect(cues(`- ${line}`).changed).toEqual({ line, heading: null })
    expect(cues('- Bump the Docker image alpine from 3.19 to 3.20').changed).toBeNull()
    // "No changes" after a line about the image says nothing moved.
    expect(cues('- Tagged again: the base image digest was wrong. No changes.').changed).toBeNull()
    expect(cues('- Tagged again: the base image changes to Debian 13.').changed).not.toBeNull()
  })
})

describe('a precaution the notes ask for, or an update that cannot be undone (never safe)', () => {
  const changed = (notes: string) => {
    const f = featuresOfNotes(notes, '1.2.3')
    const c = f.rf && cuesOf(f.rf.units).changed
    return c ? c.hit?.detector.name : null
  }

  it('is a backup asked for before updating, even in a line whose other sentence runs something automatically', () => {
    expect(changed('- Make a backup of your data before upgrading.')).toBe('backupFirst')
    expect(changed('- Note: take a backup of your config folder before updating')).toBe('backupFirst')
    expect(changed('Schema changes will be applied automatically on start. Back up your database first.')).toBe(
      'backupFirst'
    )
    // A hedge does not take the precaution back.
    expect(changed('It may be wise to back up your data before upgrading.')).toBe('backupFirst')
  })

  it('is not a command or feature named backup, a fix, an addition, nor a backup said to be unneeded', () => {
    expect(changed('- `backup` first checks whether the repository exists')).toBeNull()
    expect(changed('- The first backup now runs at midnight')).toBeNull()
    expect(changed('- Fixed a backup of the database failing before upgrading the schema')).toBeNull()
    expect(changed('- Add an option to make a backup of your data before upgrading')).toBeNull()
    expect(changed('No need to back up your data before upgrading.')).toBeNull()
    expect(changed('### Tests\n\n- Make a backup of the fixtures first')).toBeNull()
  })

  it("is something of the admin's that stops working with this release, even said of later", () => {
    expect(changed('Plugins built for 2.x are not compatible with this release.')).toBe('incompatible')
    expect(changed('Mobile apps older than 1.4 will no longer be able to connect.')).toBe('incompatible')
    expect(changed('- Improved compatibility: themes are no longer incompatible with this version')).toBeNull()
    expect(changed('- Fix plugins that were not compatible with this release')).toBeNull()
  })

  it('is a step to take after updating, in either order, not a fix, an addition or what runs by itself', () => {
    for (const line of [
      'After upgrading, restart the worker container.',
      'Restart the container after upgrading.',
      'Clear your browser cache after updating.'
    ])
      expect([line, changed(line)]).toEqual([line, 'afterUpgrade'])
    expect(changed('- Fixed the app failing to restart after updating')).toBeNull()
    expect(changed('- The service now restarts automatically after updating')).toBeNull()
    expect(changed('- Add a button to restart after the update')).toBeNull()
  })

  it('is an update that cannot be downgraded or rolled back, not a downgrade that is now possible', () => {
    expect(changed('Note: once upgraded, the database cannot be downgraded.')).toBe('oneWay')
    expect(changed('Downgrading is not supported after this migration.')).toBe('oneWay')
    expect(changed('This version cannot be rolled back.')).toBe('oneWay')
    expect(changed('You can now downgrade to the previous version.')).toBeNull()
  })

  it('is a step the line hedges ("You may need to chown your volumes", "may require a migration"); unhedged, a step is the action rule\'s', () => {
    const line = 'The container now runs as a non-root user (uid 1000). You may need to chown your volumes.'
    expect(cues(line)).toMatchObject({ action: null, changed: { line, heading: null } })
    expect(changed(line)).toBe('manualStep')
    expect(cues('You need to chown the data directory to 1000:1000.').action).toEqual({
      line: 'You need to chown the data directory to 1000:1000.',
      detector: 'manualStep'
    })
    // Negated, it asks nothing.
    expect(changed('There is no need to chown your volumes.')).toBeNull()
    // A migration or an upgrade guide the line hedges, not a fix of one.
    expect(changed('This release may require a database migration.')).toBe('migration')
    expect(changed('If you use the LDAP backend, you might want to read the upgrade guide.')).toBe('guide')
    expect(changed('- Fixed a migration that might fail on MySQL')).toBeNull()
  })
})

describe('a removal or raised requirement announced for a later release (a deprecation: never safe)', () => {
  const announced = (notes: string) => {
    const f = featuresOfNotes(notes, '1.2.3')
    const c = f.rf && cuesOf(f.rf.units).changed
    return c ? { detector: c.hit?.detector.name, later: c.later ?? false } : null
  }

  it('is a removal the line says comes later, however it says so', () => {
    expect(announced('The v1 API will be removed in 3.0.')).toEqual({ detector: 'interfaceRemoved', later: true })
    expect(announced('Support for Python 3.9 will be dropped in the next release.')).toMatchObject({ later: true })
    expect(announced('Configuration option `foo` may be removed in a future release.')).toMatchObject({ later: true })
  })

  it('is not one negated, a fix, an addition, nor a removal made now', () => {
    expect(announced('The v1 API will not be removed in 3.0: it remains backwards compatible.')).toBeNull()
    expect(announced('- Fix the v1 API being removed in the next release build')).toBeNull()
    expect(announced('- Add a warning that the v1 API will be removed in 3.0')).toBeNull()
    expect(cues('- Removed the v1 API').required).toBe('removedInterface')
  })

  it('says in the rationale that a later release removes it', () => {
    const j = classifyReleases({ releases: [{ version: '2.4.0', notes: 'The v1 API will be removed in 3.0.' }] })
    expect(j.safeToUpdate).toBe('caution')
    expect(j.rationale).toContain('announces that a later release removes an interface')
  })
})

describe('a migration is a step of the admin only when it migrates their data', () => {
  const migration = (line: string) =>
    featuresOfNotes(`- ${line}`, '1.2.3')
      .rf!.units[0]!.hits.map((h) => h.detector.name)
      .filter((n) => n.startsWith('migration'))
  // A mention of a migration alone is no finding (a detector for it did not earn its place: issue 49).
  it('their database, schema, configuration or stored state', () => {
    expect(migration('This release includes a significant database migration')).toContain('migration')
    expect(migration('Run the migrations before starting the server')).toContain('migration')
    expect(migration('A one-time migration will move existing tags to the new column')).toContain('migration')
  })
  it('not the project moving its code to another library, nor an importer from another product', () => {
    expect(migration('Migrate pgAdmin UI to use React 19')).toEqual([])
    expect(migration('Make migration from DemoNotes work for old DemoList accounts')).toEqual([])
  })
})

describe('a line that asks for action', () => {
  it('includes a step whose adverb comes last: "Set the permissions … manually"', () => {
    const line = 'Temporary workaround: Set the permissions of the Demo data folder to more restrictive ones manually'
    expect(cues(`- Fix a crash\n- ${line}`).action).toEqual({ line, detector: 'manualAfter' })
  })
  it('is one a required-step or urgent detector finds', () => {
    expect(cues('- Fix a crash\n- Support for DemoDB 2.4 has been dropped.').action).toEqual({
      line: 'Support for DemoDB 2.4 has been dropped.',
      detector: 'supportRemoved'
    })
    expect(cues('- Fix a crash\n- Please upgrade as soon as possible.').action?.detector).toBe('urgent')
  })
  it("is not one under a docs, tests or chores heading (the project's own work), unless it raises a requirement", () => {
    expect(cues('## Chores\n\n- Remove the old website from the repository').action).toBeNull()
    expect(cues('## Bug fixes + maintenance:\n\n- Removed old ntfy website from ntfy entirely').action).toBeNull()
    expect(cues('## Dependencies\n\n- Require Python 3.10 or later').action?.detector).toBe('raisedRequirement')
    expect(cues('## Changes\n\n- Remove the old website from the repository').action?.detector).toBe('removalLine')
  })
  it('is not one a prefix marks as the project\'s own work ("ci:", "docs:"), unlike "build:"', () => {
    expect(cues('## Changes\n\n- ci: remove the nightly packaging job').action).toBeNull()
    expect(cues('## Changes\n\n- docs(install): drop the duplicate heading').action).toBeNull()
    expect(cues('## Changes\n\n- chore: manually add the demo build recipe').action).toBeNull()
    expect(cues('## Changes\n\n- ci: require Go 1.24 or newer to build').action?.detector).toBe('raisedRequirement')
    // Build changes may ask something of those who build the software from source.
    expect(cues('## Changes\n\n- BUILD: remove the old demo-linux targets').action?.detector).toBe('removalLine')
  })
  it('is not one that only says what is used instead, or what is now refused', () => {
    expect(cues('- Fix a crash\n- Use a sibling CSS selector instead of :has').action).toBeNull()
    expect(cues('- Fix a crash\n- Excessively large FTP control replies are now rejected').action).toBeNull()
    // A removal that says what to use instead still asks the admin to act.
    expect(cues('- Fix a crash\n- The `--legacy` flag was removed; use `--mode` instead').action?.detector).toBe(
      'settingRemoved'
    )
  })
  it('is not one that adds something, whatever it then says', () => {
    // "remove options" is what the new command does, not what the release takes away.
    expect(cues('- Fix a crash\n- Add a demo prune command to remove options from a profile').action).toBeNull()
    expect(
      cues('- Fix a crash\n- Added Qt 5 builds for older Windows, since Qt 6 requires Windows 10').action
    ).toBeNull()
    expect(cues('- Fix a crash\n- Removed the `--legacy` option').action?.detector).toBe('removedSetting')
  })
  it('is not a user story, which adds an ability ("As an admin I can …")', () => {
    expect(cues('- Fix a crash\n- As an operator I can run a task to delete stale demo keys').action).toBeNull()
    expect(cues('- Fix a crash\n- As an operator I can run a task to delete stale demo keys').required).toBeNull()
    expect(cues('- Fix a crash\n- As an operator I lost the task to delete stale demo keys').required).not.toBeNull()
  })
  it('is not one that is negated, hedged or about a later release', () => {
    expect(cues('- Fix a crash\n- No migration is needed.').action).toBeNull()
    expect(cues('- Fix a crash\n- Python 3.9 support will be removed in a future release.').action).toBeNull()
  })
  it('is one under a "Removed" or upgrade-steps heading', () => {
    expect(cues('### Removed\n\n- Node 18 support.').action).toEqual({
      line: 'Node 18 support.',
      detector: 'heading removed'
    })
    expect(cues('## Upgrade notes\n\n- Back up the database first.').action?.detector).toBe('heading upgrade')
  })
  it('that states a rubric breaking change is required', () => {
    expect(cues('- Fix a crash\n- Buildbot now requires Python 3.9 or newer.').required).toBe('raisedRequirement')
    expect(cues('- Fix a crash\n- Removed the `legacy_auth` option.').required).toMatch(
      /^removed(?:Setting|Interface)$/
    )
    expect(cues('- Fix a crash\n- Python 3.8 support will be removed in a later release.').required).toBeNull()
    expect(cues('- Fix a crash\n- Please upgrade as soon as possible.').required).toBe('urgent')
    expect(cues('- Fix a crash\n- Add a dark theme').required).toBeNull()
  })

  it('that raises a minimum version the other way round is required', () => {
    expect(cues('The minimum supported PostgreSQL version is now 14.').required).toBe('minimumRaised')
    expect(cues('Our minimum required Go version was raised to 1.22 for this release.').required).toBe('minimumRaised')
    // (The older `requiredVersion` reads any minimum near a number; this detector does not.)
    expect(detect('the minimum password length is now 12.').map((h) => h.detector.name)).not.toContain('minimumRaised')
  })

  it('that sets an upgrade path is required, not a dependency bump or a fix of the upgrade', () => {
    for (const line of [
      'You must upgrade to 2.9 before upgrading to 3.0.',
      'Upgrading from versions older than 1.5 is not supported; upgrade to 1.5 first.',
      'Only upgrades from 4.x are supported.',
      'Update to v2.4.1 first, then to this release.'
    ])
      expect([line, cues(line).required]).toEqual([line, expect.stringMatching(/^upgrade(?:Path|First)$/)])
    expect(cues('- Update to the first-party API client').required).toBeNull()
    expect(cues('- Upgrade to Go 1.22').required).toBeNull()
    expect(cues('- Fixed upgrading from versions older than 1.5').required).toBeNull()
  })

  it('that calls this release unfit asks for action, but states no change an update past it would cross', () => {
    for (const line of [
      'Do not install this release: the SQLite backend loses data on start.',
      "Don't upgrade to this version if you use LDAP logins.",
      'This release should not be used in production; 2.4.2 follows shortly.'
    ]) {
      const c = cues(`- Fix a crash\n- ${line}`)
      expect([line, c.action?.detector, c.required]).toEqual([line, 'notThisRelease', null])
    }
    const judged = (notes: string) => classifyReleases({ releases: [{ version: '2.4.1', notes }] }).safeToUpdate
    expect(judged('- Fix a crash\n- Please do not use this release with SQLite.')).not.toBe('safe')
    // Going past it to the release that fixes it is no breaking update.
    const past = classifyReleases({
      releases: [
        { version: '2.4.1', notes: '- Fix a crash\n- Do not use this release with SQLite.' },
        { version: '2.4.2', notes: '- Fix SQLite start-up' }
      ]
    })
    expect([past.safeToUpdate, past.decidedBy]).toEqual(['caution', '2.4.1'])
    // Advice about something else this version holds, or a line that only avoids a thing.
    expect(cues("- Don't use this version of the client library in new code; use v2").action).toBeNull()
    expect(cues('- Do not use inline previews in e-mails').action).toBeNull()
  })
  it('is read in a bold sentence on a line of its own, which the model does not weigh', () => {
    const warned = '**Uploads to S3 get lost. Do not use this version.**\n\n### Fixes\n\n- Fix a crash\n'
    expect(cues(warned).action?.detector).toBe('notThisRelease')
    const v = classifyReleases({ releases: [{ version: '3.1.0', notes: warned }] })
    expect([v.safeToUpdate, v.rationale]).toEqual(['caution', expect.stringContaining('Do not use this version.')])
    // As a title (no full stop) the same line is a heading only, and the model's features are the same.
    const ids = (notes: string) => Array.from(featuresOfNotes(notes, '3.1.0').rf!.ids)
    expect(ids(warned)).toEqual(ids(warned.replace('version.**', 'version**')))
    expect(cues(warned.replace('version.**', 'version**')).action).toBeNull()
  })
  it('that warns off an earlier release asks for the update now, not a downgrade warning', () => {
    const line = 'The last release (3.1.0) must not be used with an external Redis.'
    expect(cues(`- Fix a crash\n- ${line}`).required).toBe('earlierUnfit')
    // A fix that warns off the release before it: never safe, though a fix is not a required step.
    expect(
      classifyReleases({
        releases: [{ version: '3.1.1', notes: `### Bug fixes\n\n- redis: Fix lost sessions. ${line}` }]
      }).safeToUpdate
    ).toBe('caution')
    expect(cues('- Earlier releases should not be used to open archives written by this one').required).toBeNull()
    expect(cues('- The previous setting is still used when none is set').required).toBeNull()
  })
  it('that removes only a control of the interface (a button, an icon), is not required', () => {
    expect(cues('- Remove the floating Save button from the list in Settings > Boards').required).toBeNull()
    expect(cues('- Remove the alt attribute of the icon image in Demo lists').required).toBeNull()
    expect(cues('- Remove the `button_style` setting').required).toBe('removedSetting')
  })
  it('that removes only text, what did not work, or gives a new ability, is not required', () => {
    expect(cues('- Remove PostgreSQL 9.6-related comments from demo.yml.example').required).toBeNull()
    expect(cues("- Remove the compression flag support; it wasn't working anyway").required).toBeNull()
    expect(cues('- The admin is able to remove a Demo token via the HTTP API.').required).toBeNull()
    expect(cues('- Remove support for the compression flag').required).toBe('removedSupport')
  })
  it('that sits under a bug-fixes, documentation, tests or dependencies heading, is not required', () => {
    expect(cues('### Documentation\n\n- Remove the deprecated v1 API').required).toBeNull()
    expect(cues('### Changes\n\n- Remove the deprecated v1 API').required).toBe('removedInterface')
    expect(cues('### Bug fixes\n\n- The removed php-mcp provider no longer crashes upgrades').required).toBeNull()
    expect(cues('### Removed / fixed\n\n- Remove the deprecated v1 API').required).not.toBeNull()
  })
  it('is softened only in the sentence a softening word is in', () => {
    expect(
      cues('- This prevents older, potentially unsafe builds. To secure your instance, set PLUGINS_PRIVILEGED.')
        .required
    ).toBe('manualStep')
    expect(cues('- To secure your instance, you could set PLUGINS_PRIVILEGED. Thanks.').required).toBeNull()
    expect(cues('- Multithreaded I/O! It is optional and must be enabled in local.conf.').required).toBeNull()
  })
  it('is none in notes of fixes and features only', () => {
    expect(cues('- Fix a crash on start\n- Add a dark theme\n- Update translations').action).toBeNull()
  })
})

describe('sentenceAt', () => {
  it('is the sentence holding an index, not cut at the dot inside a version or a name', () => {
    const t = 'Needs node.js 3.8 now. Run the migration; then restart!'
    expect(sentenceAt(t, 0)).toBe('Needs node.js 3.8 now.')
    expect(sentenceAt(t, t.indexOf('migration'))).toBe('Run the migration;')
    expect(sentenceAt(t, t.indexOf('restart'))).toBe('then restart!')
  })
  it('ends at a colon before a capital (the command it introduced is not in the text), not after a short label', () => {
    const t = 'To repair affected snapshots, upgrade and run: This will remove the broken data, if any.'
    expect(sentenceAt(t, t.indexOf('repair'))).toBe('To repair affected snapshots, upgrade and run:')
    expect(sentenceAt(t, t.indexOf('if any'))).toBe('This will remove the broken data, if any.')
    expect(sentenceAt('BUGFIX: Remove the flag. Then more', 10)).toBe('BUGFIX: Remove the flag.')
  })
  it('parts two clauses at a dash between spaces', () => {
    const t = 'Fix an injection - remove support for X'
    expect(sentenceAt(t, t.indexOf('remove'))).toBe('remove support for X')
  })
})

describe('a required step the rubric names, beyond removals and requirements', () => {
  it('is a configuration that used to run and is now refused', () => {
    expect(
      cues('- Fix a crash\n- Buildbot will now error when configured with two services of the same name').required
    ).toBe('refusedConfig')
    expect(cues('- Fix a crash\n- Forbid running with persistence true and a persistence plugin').required).toBe(
      'refusedConfig'
    )
    // Refusing bad input is a fix, not a step for the admin.
    expect(cues('- Fix a crash\n- Reject excessively large FTP control replies').required).toBeNull()
  })
  it('is a function or structure that gained or lost an argument or member', () => {
    expect(cues('- Fix a crash\n- The cache_request() function lost its timeout argument').required).toBe(
      'signatureChanged'
    )
    expect(cues('- Fix a crash\n- Add a new member page').required).toBeNull()
  })
  it('is a setting that is no longer used for what it did, not one no longer used at all', () => {
    expect(cues('- Fix a crash\n- The parameters demo_a and demo_b are no longer used to sort visits.').required).toBe(
      'settingRemoved'
    )
    expect(cues('- Fix a crash\n- Remove the `legacy_mode` option, no longer used').required).toBeNull()
  })
  it('is not a requirement relaxed or a bug gone ("no longer requires", "no longer hangs")', () => {
    expect(cues('- Fix a crash\n- Login on phones no longer requires the demo browser plugin').required).toBeNull()
    expect(cues('- Fix a crash\n- Syncing can no longer hang forever after a lost connection').required).toBeNull()
    expect(cues('- Fix a crash\n- The demo browser plugin is no longer supported').required).not.toBeNull()
  })
  it('is not a rename a fixed bug made, nor one said to change only the interface', () => {
    const dsync =
      "demo-sync: Syncing failed for folders whose names end with '%'. Also a '%' anywhere else in a folder's " +
      'name made each sync unnecessarily rename that folder to a temporary name and back.'
    expect(cues(`- Fix a crash\n- ${dsync}`).required).toBeNull()
    const ui = 'The "Widget" model has been renamed to "Demo Widget" for clarity (UI change only)'
    expect(cues(`- Fix a crash\n- ${ui}`).required).toBeNull()
    expect(cues('- Fix a crash\n- The "Widget" model has been renamed to "Demo Widget"').required).toBe('renamed')
  })
  it('is not a Conventional Commits feature or fix without the "!" that marks a breaking one', () => {
    expect(cues('- feat(demo): remove the ref parameter from shared links').required).toBeNull()
    expect(cues('- fix: remove the `legacy_mode` option').required).toBeNull()
    expect(cues('- feat(config)!: remove the `legacy_mode` option').required).not.toBeNull()
    expect(cues('- Remove the `legacy_mode` option').required).toBe('removedSetting')
  })
  it('is a setting renamed, the noun as well as the verb', () => {
    expect(cues('- Fix a crash\n- MEDIUM: quic: Connection TX buffer setting renaming.').required).toBe(
      'settingRemoved'
    )
  })
  it('is not a rename whose next sentence keeps the old name ("The former name still works")', () => {
    const renamed = '- Fix a crash\n- demo_max was renamed to max_demo in demo.conf.'
    expect(cues(renamed).required).toBe('renamed')
    expect(cues(`${renamed} Demo keeps reading the former name, still supported as an alias.`).required).toBeNull()
    expect(cues(`${renamed} The previous name still works.`).required).toBeNull()
    expect(cues(`${renamed} The old name keeps working until 4.0.`).required).toBeNull()
    expect(cues(`${renamed} Update the name in your configuration.`).required).toBe('renamed')
    // Only the rename: a removal beside it is not kept by the words about the old name.
    expect(cues('- Fix a crash\n- Removed the demo API. Its old name remains documented.').required).not.toBeNull()
  })
  it('is read clause by clause: a removal after a dash is not softened by the fix before it', () => {
    expect(
      cues('- Security: fix an SQL injection - remove support for code evaluation in the `autovalues` option').required
    ).toBe('removedSupport')
  })
})

describe('notes that call a change breaking', () => {
  it('by a marker, by the words, or by a heading', () => {
    expect(cues('- BREAKING: the /v1 route is gone').called?.detector).toMatch(/^breaking(?:Marker|Word)$/)
    expect(cues('- feat(api)!: drop the v1 routes').called?.detector).toBe('bangMarker')
    expect(cues('## Breaking changes\n\n- `demo.json` will no longer be shipped in the static folder').called).toEqual({
      line: 'demo.json will no longer be shipped in the static folder',
      detector: null
    })
  })
  it('not when the heading or the line says there are none', () => {
    expect(cues('## No breaking changes\n\n- Fix a crash').called).toBeNull()
    expect(cues('- This release has no breaking changes.').called).toBeNull()
  })
})

describe('which line a rule quotes (cuesOf, ranked)', () => {
  const ranked = (notes: string) => {
    const f = featuresOfNotes(notes, '2.0.0')
    const first = cuesOf(f.rf!.units)
    const best = cuesOf(f.rf!.units, true)
    const line = (c: Cue | null) => c?.ue.unit.text ?? null
    return {
      first: { called: line(first.called), required: line(first.required), action: line(first.action) },
      best: { called: line(best.called), required: line(best.required), action: line(best.action) },
      flags: [first, best].map((c) => [c.called, c.required, c.action].map((x) => x !== null))
    }
  }
  it('under a breaking-changes heading, the line that states a breaking change, not the first line', () => {
    const r = ranked(
      '## Breaking changes\n\n- Add rootless images\n- Rework the settings page\n- Drop support for PostgreSQL 12\n'
    )
    expect(r.first.called).toBe('Add rootless images')
    expect(r.best.called).toBe('Drop support for PostgreSQL 12')
    expect(r.flags[0]).toEqual(r.flags[1]) // which rules hold does not depend on the rank
  })
  it('internal work and hedged lines come after a line an admin must act on', () => {
    const r = ranked(
      '- CLEANUP: connection: rename the task field to tasklet\n' +
        '- Python 3.8 support may be removed later\n' +
        '- Rename the `listen` setting to `bind`\n'
    )
    expect(r.first.action).toBe('CLEANUP: connection: rename the task field to tasklet')
    expect(r.best.action).toBe('Rename the listen setting to bind')
    expect(r.best.required).toBe('Rename the listen setting to bind')
    expect(r.flags[0]).toEqual(r.flags[1])
  })
  it('among equals, the first', () => {
    const r = ranked('- Remove the `foo` option\n- Remove the `bar` option\n')
    expect(r.best.required).toBe('Remove the foo option')
  })
})

describe('notes that say what changed (never unknown)', () => {
  const described = (notes: string) => {
    const f = featuresOfNotes(notes, '1.2.3')
    return f.rf ? cuesOf(f.rf.units).described : null
  }
  it('are notes with a line a detector reads, or a sentence of six words or more in its own words', () => {
    expect(described('- Ensure Demo peers match on both of their keys when they connect.')).toBe(true)
    // Links and @mentions are not words: a credit adds none.
    expect(described('- Tautulli v2 release! by @someone in https://github.com/o/r/pull/1')).toBe(false)
    expect(described('- Backporting 9005 into 3.6 ([#9006](https://github.com/o/r/issues/9006))')).toBe(false)
  })
  it('are not notes whose long lines only point elsewhere, withdraw the release or repeat one word', () => {
    expect(described('*_a *_a *_a *_a *_a *_a *_a *_a')).toBe(false)
    expect(described('See the full changelog on the website for everything in this one')).toBe(false)
    expect(described('This release was canceled because the build for arm64 was broken')).toBe(false)
    // What a pointer names there (the docs, a list of changes) is not a change, even in its link.
    expect(described('See https://demo.example/docs/4/whatsnew.html for a\nlist of the changes in Demo 4')).toBe(false)
  })
})

describe('notes that only send the reader elsewhere (unknown)', () => {
  const points = (notes: string) => {
    const f = featuresOfNotes(notes, '1.2.3')
    return f.rf ? cuesOf(f.rf.units).pointsElsewhere : null
  }
  it('are notes each line of which points to other text and names no change', () => {
    expect(points('Please see the release notes on our website.')).toBe(true)
    expect(points('See https://demo.example/docs/4/whatsnew.html for a\nlist of the changes in Demo 4')).toBe(true)
    expect(points('For details see https://demo.example/news')).toBe(true)
    expect(points('Changes: see below')).toBe(true)
  })
  it('are not notes with a line that says what changed, or that points to a step', () => {
    expect(points('Fixed the changelog link')).toBe(false)
    expect(points('See the new dark mode in the settings')).toBe(false)
    expect(points('See the upgrade guide at https://demo.example/upgrade')).toBe(false)
    expect(points('- See https://demo.example/changes\n- Fixed a crash on startup')).toBe(false)
  })
})

describe('the misreadings of issue 59', () => {
  it('an entry that says there is none ("Nothing", "None.") under a heading is no line to act on', () => {
    const notes =
      '## Added\n- A dark theme for the settings page\n## Removed\n- Nothing\n## Fixed\n- Fix the date picker'
    expect(cues(notes)).toMatchObject({ action: null, required: null, called: null })
    expect(cues('## Breaking changes\n- None.\n## Fixed\n- Fix the date picker').called).toBeNull()
    expect(cues('## Removed\n- The legacy sync mode\n## Fixed\n- Fix the date picker').action).toEqual({
      line: 'The legacy sync mode',
      detector: 'heading removed'
    })
  })
  it('"Nothing" under a "Changed" or "Deprecated" heading announces no change, nor is it quoted', () => {
    const notes =
      '### Changed\n* *Nothing*\n\n### Deprecated\n* *Nothing*\n\n### Fixed\n* Fix the date picker on phones'
    expect(cues(notes).changed).toBeNull()
    expect(cues(notes.replace('*Nothing*', 'Sort tags by name')).changed).toMatchObject({ heading: 'changed' })
    const v = classifyReleases({ releases: [{ version: '1.2.3', notes }] })
    expect(v.safeToUpdate).toBe('safe')
    expect(v.rationale).not.toMatch(/Nothing/)
  })
  it('an upgrade urgency that says it is not urgent asks for no urgent update', () => {
    const notes = 'Upgrade urgency MODERATE: upgrade soon, but it is not urgent.\n\n- Fix a crash'
    expect(cues(notes)).toMatchObject({ action: null, required: null })
    expect(cues('Upgrade urgency HIGH: upgrade urgently, a crash loses data.\n\n- Fix a crash').action).toMatchObject({
      detector: 'urgent'
    })
    // An urgency rated low or moderate is none, whatever the rest of the line says (or with nothing after it).
    for (const level of ['Upgrade urgency: LOW', 'Upgrade urgency LOW: new commands only', 'Moderate urgency.'])
      expect([level, cues(`${level}\n\n- Fix a crash`)]).toMatchObject([level, { action: null, required: null }])
  })
})
