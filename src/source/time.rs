//! Times as agents record them and as srview prints them: days since 1970
//! of a calendar date and back, `YYYY-MM-DD` dates (`sessions --since`),
//! RFC 3339 times (the gate's record, the agents' `timestamp` fields).
//! Pure: no clock is read here.

use std::time::SystemTime;

/// Days since 1970-01-01 of a proleptic Gregorian date.
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day count since 1970-01-01.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `YYYY-MM-DD` (UTC midnight) as a time.
pub fn parse_date(text: &str) -> Option<SystemTime> {
    let mut parts = text.trim().splitn(3, '-');
    let year: i64 = parts.next()?.parse().ok()?;
    let month: u32 = parts.next()?.parse().ok()?;
    let day: u32 = parts.next()?.parse().ok()?;
    if !(1..=12).contains(&month)
        || !(1..=31).contains(&day)
        || civil_from_days(days_from_civil(year, month, day)) != (year, month, day)
    {
        return None;
    }
    let secs = days_from_civil(year, month, day) * 86_400;
    let secs = u64::try_from(secs).ok()?;
    Some(SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(secs))
}

/// `YYYY-MM-DD HH:MM` (UTC).
pub fn format_time(t: SystemTime) -> String {
    let secs = t
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let rest = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}",
        rest / 3600,
        rest % 3600 / 60
    )
}

/// Milliseconds since 1970 of an RFC 3339 time (`2026-12-01T14:04:29.429Z`,
/// `...+02:00`, seconds' fraction optional); `None` for another text.
pub fn epoch_ms(text: &str) -> Option<i64> {
    let number = |range: std::ops::Range<usize>| -> Option<i64> {
        let digits = text.get(range)?;
        digits
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| digits.parse().ok())?
    };
    let bytes = text.as_bytes();
    let marks = [(4, b'-'), (7, b'-'), (13, b':'), (16, b':')];
    if marks.iter().any(|&(at, mark)| bytes.get(at) != Some(&mark))
        || !matches!(bytes.get(10), Some(b'T' | b't' | b' '))
    {
        return None;
    }
    let (month, day) = (
        u32::try_from(number(5..7)?).ok()?,
        u32::try_from(number(8..10)?).ok()?,
    );
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let days = days_from_civil(number(0..4)?, month, day);
    let seconds = days * 86_400 + number(11..13)? * 3600 + number(14..16)? * 60 + number(17..19)?;
    let mut rest = &text[19..];
    let mut millis = 0;
    if let Some(fraction) = rest.strip_prefix('.') {
        let len = fraction.bytes().take_while(u8::is_ascii_digit).count();
        let digits = &fraction[..len];
        millis = digits
            .bytes()
            .take(3)
            .chain(std::iter::repeat(b'0'))
            .take(3)
            .fold(0, |ms, b| ms * 10 + i64::from(b - b'0'));
        rest = &fraction[len..];
    }
    let offset = match rest {
        "Z" | "z" => 0,
        _ => {
            let sign = match rest.as_bytes().first()? {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            if rest.len() != 6 || rest.as_bytes()[3] != b':' {
                return None;
            }
            let (h, m): (i64, i64) = (rest[1..3].parse().ok()?, rest[4..6].parse().ok()?);
            sign * (h * 3600 + m * 60)
        }
    };
    Some((seconds - offset) * 1000 + millis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(
            civil_from_days(days_from_civil(2026, 11, 30)),
            (2026, 11, 30)
        );
        assert_eq!(civil_from_days(days_from_civil(2024, 2, 29)), (2024, 2, 29));
        assert_eq!(parse_date("2025-02-30"), None);
        assert_eq!(parse_date("yesterday"), None);
        let t = parse_date("2026-11-30").unwrap();
        assert_eq!(format_time(t), "2026-11-30 00:00");
    }

    #[test]
    fn record_times_are_read_as_rfc_3339() {
        assert_eq!(epoch_ms("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            epoch_ms("2026-12-01T14:04:29.429Z"),
            Some(1_796_133_869_429)
        );
        assert_eq!(
            epoch_ms("2026-12-01T16:04:29.4+02:00"),
            epoch_ms("2026-12-01T14:04:29.400Z")
        );
        for bad in [
            "",
            "t",
            "2026-13-01T00:00:00Z",
            "2026-12-01 14:04",
            "2026-12-01T14:04:29",
        ] {
            assert_eq!(epoch_ms(bad), None, "{bad}");
        }
    }
}
