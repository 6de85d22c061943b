import Foundation

/// Finder's order of strings, Core Data's `localizedStandardCompare:`:
/// case-insensitive, runs of digits compared as numbers ("item 2" before
/// "item 10"), width-insensitive, in the current locale's collation, and
/// never equal for strings that differ (forced ordering). One function for
/// the store's collation and the in-memory sort, so a fetch and a
/// fetched-results controller place strings alike.
public enum StandardTextOrder {
    public static func compare(_ first: String, _ second: String) -> ComparisonResult {
        first.compare(second, options: [.caseInsensitive, .numeric, .widthInsensitive, .forcedOrdering],
                      range: nil, locale: Locale.current)
    }
}
