// A hand-written model file that uses every element and attribute the reader
// maps: the fixture for the mapping, round-trip and fuzz tests.

enum KitchenSinkModelFile {
    static let xml = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23A344" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="v7">
        <entity name="Base" representedClassName="BaseMO" isAbstract="YES" elementID="OldBase" versionHashModifier="b1" syncable="YES" codeGenerationType="class">
            <attribute name="createdAt" attributeType="Date" minDateTimeInterval="0" maxDateTimeInterval="1000000000" defaultDateTimeInterval="86400.5" usesScalarValueType="NO"/>
            <userInfo>
                <entry key="role" value="root"/>
            </userInfo>
        </entity>
        <entity name="Item" representedClassName="ItemMO" parentEntity="Base" syncable="YES">
            <attribute name="count16" optional="YES" attributeType="Integer 16" minValueString="-5" maxValueString="500" defaultValueString="7" usesScalarValueType="YES"/>
            <attribute name="count32" optional="YES" attributeType="Integer 32" defaultValueString="-70000" usesScalarValueType="YES"/>
            <attribute name="count64" attributeType="Integer 64" defaultValueString="9000000000" indexed="YES" usesScalarValueType="YES"/>
            <attribute name="price" optional="YES" attributeType="Decimal" minValueString="0.01" maxValueString="100" defaultValueString="1.25"/>
            <attribute name="ratio" optional="YES" attributeType="Double" minValueString="-1.5" maxValueString="1.5" defaultValueString="0.25" usesScalarValueType="YES"/>
            <attribute name="weight" optional="YES" attributeType="Float" defaultValueString="2" usesScalarValueType="YES"/>
            <attribute name="title" attributeType="String" minValueString="1" maxValueString="80" regularExpressionString="[A-Za-z ]+" defaultValueString="Untitled" elementID="name" versionHashModifier="t2">
                <userInfo>
                    <entry key="label" value="Title &amp; &quot;name&quot;"/>
                </userInfo>
            </attribute>
            <attribute name="done" optional="YES" attributeType="Boolean" defaultValueString="YES" usesScalarValueType="YES"/>
            <attribute name="blob" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
            <attribute name="token" optional="YES" attributeType="UUID" defaultValueString="E621E1F8-C36C-495A-93FC-0C247A3E6E5F" usesScalarValueType="NO"/>
            <attribute name="link" optional="YES" attributeType="URI" defaultValueString="https://example.com/a?b=1&amp;c=2"/>
            <attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="KitchenSinkTransformer" customClassName="[String]"/>
            <attribute name="scratch" optional="YES" transient="YES" attributeType="Undefined"/>
            <attribute name="partCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="parts.@count" usesScalarValueType="YES"/>
            <attribute name="colors" optional="YES" attributeType="Composite" composite="ColorScheme"/>
            <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="items" inverseEntity="Person" elementID="holder" versionHashModifier="r1">
                <userInfo>
                    <entry key="doc" value="the owner"/>
                </userInfo>
            </relationship>
            <relationship name="parts" optional="YES" toMany="YES" minCount="1" maxCount="10" ordered="YES" deletionRule="Cascade" destinationEntity="Part" inverseName="item" inverseEntity="Part"/>
            <relationship name="related" optional="YES" toMany="YES" deletionRule="No Action" destinationEntity="Item" inverseName="related" inverseEntity="Item"/>
            <fetchedProperty name="similar" optional="YES">
                <fetchRequest name="fetchedPropertyFetchRequest" entity="Item" predicateString="title == $FETCH_SOURCE.title"/>
            </fetchedProperty>
            <fetchIndex name="byTitle">
                <fetchIndexElement property="title" type="Binary" order="ascending"/>
                <fetchIndexElement property="count64" type="Binary" order="descending"/>
            </fetchIndex>
            <fetchIndex name="byRatio">
                <fetchIndexElement property="ratio" type="RTree" order="ascending"/>
            </fetchIndex>
            <uniquenessConstraints>
                <uniquenessConstraint>
                    <constraint value="title"/>
                </uniquenessConstraint>
                <uniquenessConstraint>
                    <constraint value="count16"/>
                    <constraint value="owner"/>
                </uniquenessConstraint>
            </uniquenessConstraints>
            <compoundIndexes>
                <compoundIndex>
                    <index value="count32"/>
                    <index value="done"/>
                </compoundIndex>
            </compoundIndexes>
        </entity>
        <entity name="Part" representedClassName="Part">
            <attribute name="label" optional="YES" attributeType="String"/>
            <relationship name="item" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item" inverseName="parts" inverseEntity="Item"/>
        </entity>
        <entity name="Person" representedClassName="Person">
            <attribute name="name" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Item" inverseName="owner" inverseEntity="Item"/>
        </entity>
        <composite name="ColorScheme">
            <attribute name="primary" optional="YES" attributeType="String" defaultValueString="red"/>
            <attribute name="accent" optional="YES" attributeType="Composite" composite="Accent"/>
        </composite>
        <composite name="Accent">
            <attribute name="hue" optional="YES" attributeType="Double" defaultValueString="0.5"/>
            <attribute name="saturation" optional="YES" attributeType="Double"/>
        </composite>
        <fetchRequest name="OpenItems" entity="Item" predicateString="done == NO AND title BEGINSWITH &quot;A&quot;" fetchLimit="20" returnObjectsAsFaults="NO"/>
        <configuration name="Local">
            <memberEntity name="Item"/>
            <memberEntity name="Part"/>
        </configuration>
        <configuration name="Cloud" usedWithCloudKit="YES">
            <memberEntity name="Person"/>
        </configuration>
        <userInfo>
            <entry key="schema" value="kitchen-sink"/>
        </userInfo>
        <elements>
            <element name="Item" positionX="0" positionY="0" width="128" height="300"/>
        </elements>
    </model>
    """
}
